// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCLI
import ElbowroomCore

exit(ElbowroomMain.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
