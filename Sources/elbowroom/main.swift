import ElbowroomCLI
import ElbowroomCore

exit(ElbowroomMain.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
