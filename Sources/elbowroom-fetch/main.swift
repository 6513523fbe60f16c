import Foundation
import ElbowroomFetch

// The network side of elbowroom: started detached by the renderer, or by `elbowroom fetch`.
exit(FetchCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
