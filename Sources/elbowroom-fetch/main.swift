import Foundation
import ElbowroomCore
import ElbowroomFetch

// The network side of elbowroom: started detached by the renderer, or by `elbowroom fetch`.
let environment = ElbowroomEnvironment.current
FoundationStorage.confine(environment: environment)
exit(FetchCommand.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
