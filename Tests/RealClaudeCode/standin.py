#!/usr/bin/env python3
"""A loopback stand-in for Anthropic, for tests that drive the real Claude Code binary.

    python3 standin.py DIR --access TOKEN --refresh TOKEN

It listens on 127.0.0.1 only, on two ports it picks, and writes DIR/ports.json once it is ready:
  {"http": PORT, "proxy": PORT, "ca": "DIR/ca.pem"}

- http: plain HTTP. The Messages API for `ANTHROPIC_BASE_URL` (`/v1/messages`, streaming SSE as
  the API answers, with the unified rate-limit headers), and the same usage, profile and token
  endpoints the proxy serves, for elbowroom-fetch (`ELBOWROOM_API_URL`, `ELBOWROOM_TOKEN_URL`).
- proxy: an HTTPS proxy for `HTTPS_PROXY`. CONNECT to api.anthropic.com or platform.claude.com is
  answered, and TLS terminated with a certificate from a test CA made here with openssl (trust it
  through `NODE_EXTRA_CA_CERTS=DIR/ca.pem`). Every other host is refused: nothing leaves the
  machine.

One token state serves both ports: `/v1/oauth/token` rotates the tokens for the current refresh
token and answers any other (a reused one) with 400 {"error":"invalid_grant"}, as the real server
does. Every issued access token stays valid for the Messages API; any other gets a 401.

DIR/config.json, when present, is read again on every request (the test changes it while
Claude Code runs):
  "ratelimit":   {"5h-utilization": "0.37", ...}  anthropic-ratelimit-unified-<key> headers
  "reply":       text of the assistant's answer
  "usage":       the /api/oauth/usage body (an object)
  "expires_in":  lifetime of issued access tokens, seconds (default 28800)
  "token_delay": seconds the token endpoint waits before answering a request that came through
                 the proxy (Claude Code's): its refresh stays in flight, its locks held
  "tool_use":    {"when": TEXT, "steps": [{"name": TOOL, "input": {...}}, ...]}: in a conversation
                 whose user messages hold TEXT, a streaming request that offers tools is answered
                 with a tool_use of steps[n] (stop_reason "tool_use"), n being the number of
                 tool_results Claude Code has sent back so far (one step a turn: ToolSearch to
                 load a deferred MCP tool, then the tool); once every step has its result, "reply"

Every request is appended to DIR/requests.jsonl as one JSON object: `port` ("http", "proxy" for
the tunnels, "proxied" for plain http sent through the proxy),
`host`, `method`, `path`, `headers` (lower-case names), `body` (text), `status`, `t` (epoch s).
DIR/arrivals.jsonl has the same requests (`port`, `host`, `method`, `path`, `t`) as they arrive,
before they are answered (a test waits there for a request in flight). The token state after each
rotation is in DIR/tokens.json.
"""
import argparse
import http.server
import json
import os
import signal
import socketserver
import ssl
import subprocess
import sys
import threading
import time
import uuid

HOSTS = ("api.anthropic.com", "platform.claude.com")
SCOPES = "user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload user:plugins"
ACCOUNT_UUID = "8f8a3b1e-0000-4000-8000-standin00001"
ORG_UUID = "0d1e2f3a-0000-4000-8000-standin00002"
EMAIL = "standin@example.com"


class State:
    def __init__(self, directory, access, refresh):
        self.dir = directory
        self.lock = threading.Lock()
        self.valid_access = {access}
        self.refresh = refresh
        self.issued = 0
        self.save_tokens(access)

    def config(self):
        try:
            with open(os.path.join(self.dir, "config.json")) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def record(self, entry):
        entry["t"] = time.time()
        line = json.dumps(entry) + "\n"
        with self.lock:
            with open(os.path.join(self.dir, "requests.jsonl"), "a") as f:
                f.write(line)

    def arrived(self, entry):
        entry["t"] = time.time()
        line = json.dumps(entry) + "\n"
        with self.lock:
            with open(os.path.join(self.dir, "arrivals.jsonl"), "a") as f:
                f.write(line)

    def save_tokens(self, access):
        tmp = os.path.join(self.dir, "tokens.json.tmp")
        with open(tmp, "w") as f:
            json.dump({"access": access, "refresh": self.refresh, "issued": self.issued}, f)
        os.rename(tmp, os.path.join(self.dir, "tokens.json"))

    def rotate(self, presented, expires_in):
        """New tokens for the current refresh token; None for any other."""
        with self.lock:
            if presented != self.refresh:
                return None
            self.issued += 1
            access = "sk-ant-oat01-standin-access-%d-%s" % (self.issued, uuid.uuid4().hex[:12])
            self.refresh = "sk-ant-ort01-standin-refresh-%d-%s" % (self.issued, uuid.uuid4().hex[:12])
            self.valid_access.add(access)
            self.save_tokens(access)
            return {"access_token": access, "refresh_token": self.refresh, "expires_in": expires_in,
                    "token_type": "Bearer", "scope": SCOPES,
                    "account": {"uuid": ACCOUNT_UUID, "email_address": EMAIL},
                    "organization": {"uuid": ORG_UUID}}

    def authorised(self, headers):
        auth = headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else headers.get("x-api-key", "")
        with self.lock:
            return token in self.valid_access


def sse(event, data):
    return "event: %s\ndata: %s\n\n" % (event, json.dumps(data))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set per server
    port_name = "http"
    host = None  # the CONNECT host, for requests inside a tunnel

    def log_message(self, *args):
        pass

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send(self, status, body, content_type="application/json", extra=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_standin_" + uuid.uuid4().hex[:16])
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        return status

    def handle_any(self):
        self.state.arrived({"port": self.port_name, "host": self.host or self.headers.get("Host", ""),
                            "method": self.command, "path": self.path})
        raw = self.body()
        path = self.path.split("?", 1)[0]
        entry = {"port": self.port_name, "host": self.host or self.headers.get("Host", ""),
                 "method": self.command, "path": self.path,
                 "headers": {k.lower(): v for k, v in self.headers.items()},
                 "body": raw.decode("utf-8", "replace")}
        try:
            entry["status"] = self.route(path, raw)
        finally:
            self.state.record(entry)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any

    def route(self, path, raw):
        config = self.state.config()
        if path == "/v1/oauth/token" and self.command == "POST":
            return self.token(raw, config)
        if path == "/v1/messages" and self.command == "POST":
            return self.messages(raw, config)
        if path == "/v1/messages/count_tokens":
            return self.send(200, '{"input_tokens":42}')
        if path == "/api/oauth/usage":
            if not self.state.authorised(self.headers):
                return self.send(401, '{"type":"error","error":{"type":"authentication_error","message":"Invalid bearer token"}}')
            return self.send(200, json.dumps(config.get("usage") or {
                "five_hour": {"utilization": 37.0, "resets_at": None},
                "seven_day": {"utilization": 12.0, "resets_at": None}}))
        if path == "/api/oauth/profile":
            if not self.state.authorised(self.headers):
                return self.send(401, '{"type":"error","error":{"type":"authentication_error","message":"Invalid bearer token"}}')
            return self.send(200, json.dumps({
                "account": {"uuid": ACCOUNT_UUID, "email": EMAIL, "display_name": "Stand In",
                            "has_claude_max": True, "has_claude_pro": False},
                "organization": {"uuid": ORG_UUID, "name": "Stand-in", "organization_type": "claude_max",
                                 "rate_limit_tier": "default_claude_max_20x", "billing_type": "stripe_subscription"}}))
        return self.send(404, '{"type":"error","error":{"type":"not_found_error","message":"stand-in: no such endpoint"}}')

    def token(self, raw, config):
        delay = float(config.get("token_delay") or 0)
        if delay and self.port_name == "proxy":
            time.sleep(delay)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = dict(p.split("=", 1) for p in raw.decode().split("&") if "=" in p)
        if body.get("grant_type") != "refresh_token":
            return self.send(400, '{"error":"unsupported_grant_type"}')
        answer = self.state.rotate(body.get("refresh_token"), int(config.get("expires_in") or 28800))
        if answer is None:
            return self.send(400, '{"error":"invalid_grant","error_description":"Invalid refresh token"}')
        return self.send(200, json.dumps(answer))

    def messages(self, raw, config):
        if not self.state.authorised(self.headers):
            return self.send(401, '{"type":"error","error":{"type":"authentication_error","message":"Invalid bearer token"}}')
        try:
            request = json.loads(raw or b"{}")
        except ValueError:
            request = {}
        model = request.get("model") or "claude-sonnet-4-5"
        text = config.get("reply", "Hello from the stand-in.")
        headers = [("anthropic-ratelimit-unified-" + k, str(v)) for k, v in (config.get("ratelimit") or {}).items()]
        message_id = "msg_standin_" + uuid.uuid4().hex[:16]
        usage = {"input_tokens": 12, "output_tokens": 7, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        tool = self.tool_to_call(request, config.get("tool_use"))
        if tool is not None and request.get("stream"):
            block = {"type": "tool_use", "id": "toolu_standin_" + uuid.uuid4().hex[:16], "name": tool["name"], "input": {}}
            events = [
                sse("message_start", {"type": "message_start", "message": {
                    "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
                    "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}}),
                sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "input_json_delta",
                                                      "partial_json": json.dumps(tool.get("input") or {})}}),
                sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
                sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                                      "usage": {"output_tokens": 7}}),
                sse("message_stop", {"type": "message_stop"}),
            ]
            return self.send(200, "".join(events), content_type="text/event-stream; charset=utf-8",
                             extra=headers + [("Cache-Control", "no-cache")])
        if not request.get("stream"):
            return self.send(200, json.dumps({
                "id": message_id, "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                "stop_sequence": None, "usage": usage}), extra=headers)
        events = [
            sse("message_start", {"type": "message_start", "message": {
                "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}}),
            sse("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}}),
            sse("ping", {"type": "ping"}),
            sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": text}}),
            sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
            sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                  "usage": {"output_tokens": 7}}),
            sse("message_stop", {"type": "message_stop"}),
        ]
        return self.send(200, "".join(events), content_type="text/event-stream; charset=utf-8",
                         extra=headers + [("Cache-Control", "no-cache")])


    @staticmethod
    def tool_to_call(request, config):
        """The tool to call for this request (see "tool_use"), or None."""
        if not config or not request.get("tools"):
            return None
        messages = request.get("messages") or []
        # (2.1.332 may send a system message after the user's: the turn is the user's all the same.)
        turns = [m for m in messages if m.get("role") != "system"]
        if not turns or turns[-1].get("role") != "user":
            return None
        texts, results = [], 0
        for message in messages:
            content = message.get("content")
            if isinstance(content, str):
                texts.append(content)
                continue
            for block in content or []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_result":
                    results += 1
                elif message.get("role") == "user":
                    texts.append(block.get("text", ""))
        if not any(config.get("when", "") in t for t in texts):
            return None
        steps = config.get("steps") or []
        return steps[results] if results < len(steps) else None


class ProxyHandler(Handler):
    tls = None
    loopback = ()  # the plain port's own origins, served here too (a client that proxies http)

    def plain(self):
        for origin in self.loopback:
            if self.path.startswith(origin + "/"):
                self.path = self.path[len(origin):]
                self.port_name, self.host = "proxied", origin
                return self.handle_any()
        return self.refuse()

    def refuse(self):
        self.state.record({"port": "proxy", "host": self.path, "method": self.command, "path": self.path,
                           "headers": {k.lower(): v for k, v in self.headers.items()}, "body": "", "status": 403})
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def do_CONNECT(self):
        host = self.path.rsplit(":", 1)[0]
        if host not in HOSTS:
            return self.refuse()
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        try:
            tunnel = self.tls.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError) as error:
            self.state.record({"port": "proxy", "host": host, "method": "TLS", "path": "", "headers": {},
                               "body": str(error), "status": 0})
            return
        inner = type("Tunnelled", (Handler,), {"state": self.state, "port_name": "proxy", "host": host})
        try:
            inner(tunnel, self.client_address, self.server)
        except (ssl.SSLError, OSError):
            pass
        finally:
            try:
                tunnel.close()
            except OSError:
                pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = plain


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_certificates(directory):
    """A test CA and a certificate for HOSTS it signs, made here with openssl."""
    def run(*args):
        subprocess.run(["openssl", *args], cwd=directory, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=elbowroom test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=" + HOSTS[0])
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\nsubjectAltName=" + ",".join("DNS:" + h for h in HOSTS) + "\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "server.ext")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--access", required=True)
    parser.add_argument("--refresh", required=True)
    args = parser.parse_args()
    # A test runner may hand down a signal mask that blocks SIGTERM: take it back.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    directory = os.path.abspath(args.dir)
    os.makedirs(directory, exist_ok=True)
    make_certificates(directory)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(os.path.join(directory, "server.pem"), os.path.join(directory, "server.key"))
    tls.set_alpn_protocols(["http/1.1"])

    state = State(directory, args.access, args.refresh)
    http_server = Server(("127.0.0.1", 0), type("Plain", (Handler,), {"state": state}))
    port = http_server.server_address[1]
    proxy_server = Server(("127.0.0.1", 0), type("Proxy", (ProxyHandler,), {
        "state": state, "tls": tls, "loopback": ("http://127.0.0.1:%d" % port, "http://localhost:%d" % port)}))
    for server in (http_server, proxy_server):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ports = {"http": http_server.server_address[1], "proxy": proxy_server.server_address[1],
             "ca": os.path.join(directory, "ca.pem")}
    tmp = os.path.join(directory, "ports.json.tmp")
    with open(tmp, "w") as f:
        json.dump(ports, f)
    os.rename(tmp, os.path.join(directory, "ports.json"))
    print(json.dumps(ports), flush=True)
    # Until the test stops us, or its process is gone (never outlive the test that started us).
    parent = os.getppid()
    try:
        while os.getppid() == parent:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
