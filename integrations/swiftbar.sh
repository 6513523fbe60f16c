#!/bin/sh
# Save as elbowroom.30s.sh in your SwiftBar plugin folder and make it executable
# (chmod +x). SwiftBar's PATH is short: `elbowroom init swiftbar` names elbowroom by
# its full path when it is not in /usr/local/bin.
# <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
exec elbowroom -a swiftbar
