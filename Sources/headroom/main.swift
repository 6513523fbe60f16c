import HeadroomCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(HeadroomMain.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
