#!/bin/sh
# Save as elbowroom.30s.sh in your SwiftBar plugin folder and make it executable
# (chmod +x). SwiftBar's PATH is short: name elbowroom by its full path.
# <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
exec "$HOME/.local/bin/elbowroom" -a swiftbar
