{
  # nix run .  /  nix profile install .   (needs a nixpkgs whose swift is 6.0 or newer)
  # The version is kept equal to Sources/ElbowroomCLI/Support/Version.swift by .ci/release-check.
  description = "elbowroom: how much of your Claude usage windows is left, in bars, tmux and prompts";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in
    {
      packages = forAllSystems (pkgs: rec {
        elbowroom = pkgs.swiftPackages.stdenv.mkDerivation {
          pname = "elbowroom";
          version = "0.1.0";
          src = self;

          # swiftpm's setup hook builds with `swift build -c release`.
          nativeBuildInputs = [ pkgs.swift pkgs.swiftpm pkgs.installShellFiles ];
          # curl: elbowroom-http, the fetcher's HTTP on Linux, is linked against libcurl.
          buildInputs = [ pkgs.swiftPackages.Foundation pkgs.curl ];

          installPhase = ''
            runHook preInstall
            bin="$(swiftpmBinPath)"
            install -Dm755 "$bin/elbowroom" -t "$out/bin"
            ln -s elbowroom "$out/bin/elbowroom-fetch"
            # Linux: the fetcher's HTTP helper (C, over the system libcurl).
            if [ -e "$bin/elbowroom-http" ]; then install -Dm755 "$bin/elbowroom-http" -t "$out/libexec/elbowroom"; fi
            installManPage man/elbowroom.1 man/elbowroom-fetch.1 man/elbowroom.5
            installShellCompletion --cmd elbowroom \
              --bash completions/elbowroom.bash \
              --zsh completions/_elbowroom \
              --fish completions/elbowroom.fish
            install -Dm644 integrations/*.* -t "$out/share/elbowroom/integrations"
            install -Dm644 integrations/prometheus/* -t "$out/share/elbowroom/integrations/prometheus"
            install -Dm644 integrations/grafana/* -t "$out/share/elbowroom/integrations/grafana"
            install -Dm644 integrations/sources/* -t "$out/share/elbowroom/integrations/sources"
            install -Dm644 templates/* -t "$out/share/elbowroom/templates"
            install -Dm755 elbowroom.tmux -t "$out/share/elbowroom"
            install -Dm644 LICENSE -t "$out/share/doc/elbowroom"
            runHook postInstall
          '';

          meta = {
            description = "How much of your Claude usage windows is left, in bars, tmux and prompts";
            license = pkgs.lib.licenses.mit;
            mainProgram = "elbowroom";
            platforms = systems;
          };
        };
        default = elbowroom;
      });
    };
}
