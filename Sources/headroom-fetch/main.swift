import Foundation
import HeadroomFetch

// The network side of headroom: started detached by the renderer, or by `headroom fetch`.
exit(FetchCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
