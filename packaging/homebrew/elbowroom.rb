# Homebrew formula (builds from source with Xcode's Swift): put it in a tap, e.g.
#   brew tap-new you/tools && cp packaging/homebrew/elbowroom.rb "$(brew --repo you/tools)/Formula/"
#   brew install you/tools/elbowroom            # or: brew install --HEAD you/tools/elbowroom
# On a release: set url to the tag's archive and sha256 to `shasum -a 256` of it.
# The version is kept equal to Sources/ElbowroomCLI/Support/Version.swift by .ci/release-check.
class Elbowroom < Formula
  desc "How much of your Claude usage windows is left, in bars, tmux and prompts"
  homepage "https://github.com/elbowroom/elbowroom"
  url "https://github.com/elbowroom/elbowroom/archive/refs/tags/v0.1.0.tar.gz"
  version "0.1.0"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"
  head "https://github.com/elbowroom/elbowroom.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on macos: :ventura

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "elbowroom"
    # One program; started as elbowroom-fetch it is the fetcher (URLSession here: no helper).
    bin.install ".build/release/elbowroom"
    bin.install_symlink "elbowroom" => "elbowroom-fetch"
    man1.install "man/elbowroom.1", "man/elbowroom-fetch.1"
    man5.install "man/elbowroom.5"
    bash_completion.install "completions/elbowroom.bash" => "elbowroom"
    zsh_completion.install "completions/_elbowroom"
    fish_completion.install "completions/elbowroom.fish"
    pkgshare.install "integrations", "templates", "elbowroom.tmux"
  end

  def caveats
    <<~EOS
      Set it up for your bar, prompt or tmux with a ready snippet:
        elbowroom init swiftbar        # also: tmux zsh bash fish starship claude
      Check every part:
        elbowroom doctor
    EOS
  end

  test do
    assert_match "elbowroom #{version}", shell_output("#{bin}/elbowroom --version")
    assert_match "5h", shell_output("#{bin}/elbowroom --demo --color never")
    assert_match "#compdef elbowroom", shell_output("#{bin}/elbowroom completions zsh")
    system bin/"elbowroom-fetch", "--help"
  end
end
