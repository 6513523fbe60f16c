#!/usr/bin/env python3
"""A loopback stand-in for Anthropic's usage endpoint, for checks of the installed binaries
(the Swift tests have their own in Tests/ElbowroomTestSupport).

    fake-usage-api.py PORTFILE TOKEN [SECONDS]

Listens on 127.0.0.1 (a free port, written to PORTFILE), answers GET /api/oauth/usage with a
usage document when the request carries `Authorization: Bearer TOKEN`, the oauth beta header and
Claude Code's usage-endpoint user agent (claude-cli/VERSION), 401 otherwise; POST
/v1/oauth/token with a refresh grant for the checks' refresh token answers TOKEN and a rotated
refresh token; logs each request line (never a header) to stderr, and
exits by itself after SECONDS (default 300).
"""
import datetime
import http.server
import json
import os
import sys
import threading

port_file, token = sys.argv[1], sys.argv[2]
lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 300


def iso(seconds_from_now):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds_from_now)
    return moment.isoformat(timespec="microseconds")


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/api/oauth/usage":
            return self.reply(404, {"error": {"type": "not_found_error", "message": "not found"}})
        authorized = (
            self.headers.get("Authorization") == "Bearer " + token
            and self.headers.get("anthropic-beta") == "oauth-2025-04-20"
            and (self.headers.get("User-Agent") or "").startswith("claude-cli/")
        )
        if not authorized:
            return self.reply(401, {"error": {"type": "authentication_error", "message": "invalid token"}})
        self.reply(200, {
            "five_hour": {"utilization": 63.0, "resets_at": iso(2 * 3600 + 13 * 60)},
            "seven_day": {"utilization": 41.0, "resets_at": iso(3 * 86400 + 4 * 3600)},
            "seven_day_opus": None,
            "extra_usage": None,
        })

    def do_POST(self):
        # The token endpoint: the refresh token the checks store (sk-ant-ort01-RELEASE-CHECK...)
        # gets TOKEN back, and a rotated refresh token.
        if self.path != "/v1/oauth/token":
            return self.reply(404, {"error": {"type": "not_found_error", "message": "not found"}})
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = {}
        if body.get("grant_type") != "refresh_token" or not str(body.get("refresh_token", "")).startswith("sk-ant-ort01-RELEASE-CHECK"):
            return self.reply(400, {"error": "invalid_grant", "error_description": "refresh token not valid"})
        self.reply(200, {"access_token": token, "refresh_token": "sk-ant-ort01-RELEASE-CHECK-ROTATED",
                         "expires_in": 28800, "token_type": "Bearer"})

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        sys.stderr.write("fake-usage-api: %s\n" % (format % args))


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
# Rename: a reader never sees a half-written port.
os.replace(port_file + ".tmp", port_file)
threading.Timer(lifetime, server.shutdown).start()
server.serve_forever()
