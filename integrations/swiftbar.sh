#!/bin/sh
# Save as headroom.30s.sh in your SwiftBar plugin folder and make it executable
# (chmod +x). SwiftBar's PATH is short: name headroom by its full path.
# <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
exec "$HOME/.local/bin/headroom" -a swiftbar
