import HeadroomCLI
import HeadroomCore

exit(HeadroomMain.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
