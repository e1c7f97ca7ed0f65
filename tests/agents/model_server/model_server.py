#!/usr/bin/env python3
"""Scripted local model server for running the real AI coding CLIs offline.

kta's agent tests point Claude Code, OpenAI Codex CLI and Gemini CLI at this
server instead of the real model APIs.  The "model" is a JSON script that
drives the CLI's own tools (read a file, write a file, run a shell command) in
the CLI's working directory.  Python 3 standard library only.

Usage:
    python3 model_server.py --script SCRIPT.json --log REQUESTS.jsonl \
        --port-file PORTFILE [--port 0] [--cwd DIR] [--verbose]

Binds 127.0.0.1 only.  With --port 0 a free port is picked; once listening the
port number is written to PORTFILE (temp file + rename, so a reader never sees
a partial file).  Serves until SIGTERM/SIGINT, then exits 0.

Protocols (SSE when the request body says "stream": true / the streaming
endpoint is used, plain JSON otherwise):
  * Anthropic Messages API (Claude Code, ANTHROPIC_BASE_URL=http://127.0.0.1:P):
    POST /v1/messages?beta=true, POST /v1/messages/count_tokens, and HEAD/GET
    on any path (Claude probes HEAD /api/hello unless
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1).
  * OpenAI Responses API (Codex, provider base_url=http://127.0.0.1:P/v1):
    POST /v1/responses, GET /v1/models.
  * Gemini API (Gemini CLI, GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:P):
    POST /v1beta/models/M:streamGenerateContent?alt=sse, :generateContent,
    :countTokens.
  Anything else is logged and answered 404 with a JSON error.

Script format (one JSON file per scenario): a list of turns, or
    {"usage": {...default per-turn usage...},
     "side_usage": {...usage reported for side requests, default all 0...},
     "turns": [TURN, ...]}
Each TURN is one model response with exactly one action:
    {"read": "FILE"}                      the CLI's read-file tool
    {"write": "FILE", "content": "..."}   the CLI's write-file tool
    {"shell": "COMMAND"}                  the CLI's shell tool
    {"text": "..."}                       final answer, no tool call (run ends)
    {"repeat": ACTION}                    ACTION (one of the above) forever
plus an optional "usage": {"input": N, "output": M, "cache_read": R,
"cache_write": W} (defaults 1000 / 100 / 0 / 0).  The numbers are reported
verbatim in each API's own fields: Anthropic input_tokens / output_tokens /
cache_read_input_tokens / cache_creation_input_tokens; OpenAI input_tokens /
output_tokens / input_tokens_details.cached_tokens; Gemini promptTokenCount /
candidatesTokenCount / cachedContentTokenCount.  Past the end of the script
the model answers "Done." (no tool call).

Tool mapping:  Claude: Read / Write / Bash.  Gemini: read_file / write_file /
run_shell_command (path argument name taken from the tool's schema).  Codex:
its shell tool (exec_command, else shell_command, else shell) running `cat`
for read; apply_patch ("*** Add File: PATH" + '+' lines, which overwrites an
existing file) for write when offered and the content ends in a newline, else
a shell heredoc.  Relative FILE paths are made absolute against the CLI's
working directory as stated in the request (see CWD_PATTERNS), --cwd as a
fallback.  Shell calls carry "(step N)" in their description because Gemini
CLI aborts after 5 identical consecutive tool calls.

Statelessness: the turn index is the number of model tool calls already in the
request's conversation history (Anthropic assistant messages holding tool_use,
OpenAI function_call / custom_tool_call items, Gemini model contents holding
functionCall).  Nothing is kept between requests, so retries and concurrent
runs sharing one server cannot derail a script.  Requests that are not the
main agent conversation get a short answer and consume no turn: Anthropic or
Gemini requests without the Bash/Read resp. run_shell_command/read_file tools
(title/topic/quota helpers, Gemini's next-speaker and loop-detection checks -
those ask for JSON and get an object shaped after their response schema),
OpenAI requests without tools, and count_tokens.

Log: every request is appended to --log as one JSON line
    {"time", "method", "path", "api": "anthropic|openai|gemini|other",
     "kind": "main|side|count_tokens|models|probe|unknown", "turn",
     "headers", "body"}
"body" is the whole parsed JSON body (text if not JSON), so tests can search
it for strings that must never reach the model.  "headers" is a subset plus
"authorization": "yes"/"no" (the key itself is never logged).
"""

import argparse
import gzip
import hashlib
import json
import os
import re
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

DEFAULT_USAGE = {"input": 1000, "output": 100, "cache_read": 0, "cache_write": 0}
DEFAULT_SIDE_USAGE = {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0}
ACTIONS = ("read", "write", "shell", "text")


# --------------------------------------------------------------------------
# Script handling
# --------------------------------------------------------------------------

class Script:
    def __init__(self, data):
        if isinstance(data, list):
            data = {"turns": data}
        self.turns = data.get("turns", [])
        self.usage = dict(DEFAULT_USAGE, **data.get("usage", {}))
        self.side_usage = dict(DEFAULT_SIDE_USAGE, **data.get("side_usage", {}))
        for i, turn in enumerate(self.turns):
            action = turn.get("repeat", turn)
            if not any(k in action for k in ACTIONS):
                raise ValueError("turn %d has no action (%s): %r" % (i, "/".join(ACTIONS), turn))

    def turn(self, index):
        """Returns (action, usage) for turn `index` (0-based).  A "repeat" turn
        answers every index from its position on; past the end of the script
        the model says "Done."."""
        for i, turn in enumerate(self.turns):
            action = turn.get("repeat", turn)
            if i == index or ("repeat" in turn and i <= index):
                usage = dict(self.usage, **turn.get("usage", {}))
                usage.update(action.get("usage", {}))
                return action, usage
        return {"text": "Done."}, dict(self.usage)


def resolve(path, cwd):
    if os.path.isabs(path) or not cwd:
        return path
    return os.path.join(cwd, path)


def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def heredoc(path, content):
    """A shell command writing `content` exactly to `path`."""
    marker = "KTA_EOF_" + hashlib.sha1(content.encode()).hexdigest()[:8]  # deterministic
    body = content if content.endswith("\n") else content + "\n"
    cmd = "mkdir -p %s && cat > %s <<'%s'\n%s%s\n" % (
        shell_quote(os.path.dirname(path) or "."), shell_quote(path), marker, body, marker)
    if not content.endswith("\n"):  # drop the newline the heredoc added
        cmd += "truncate -s -1 %s\n" % shell_quote(path)
    return cmd


def text_of(value):
    """All text inside a JSON value (used to find the cwd)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(text_of(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(text_of(v) for v in value)
    return ""


# How each CLI states its working directory (first match wins).
CWD_PATTERNS = [
    # Claude Code 2.1: "<system-reminder># Environment ... - Primary working
    # directory: DIR" in the first user message (older: in the system prompt).
    r"Primary working directory: ([^\n]+)",
    # Codex 0.171: "<environment_context>\n  <cwd>DIR</cwd>" user message.
    r"<cwd>([^<]+)</cwd>",
    # Gemini CLI 0.61: "<session_context> ... - **Workspace Directories:**\n
    # - DIR" in the first user content (older: "I'm currently working in the
    # directory: DIR").
    r"\*\*Workspace Directories:\*\*\s*\n\s*- (/[^\n]+)",
    r"I'm currently working in the directory: ([^\n]+)",
    r"Working directory: ([^\n]+)",
]


def find_cwd(body, fallback):
    text = text_of(body)
    for pattern in CWD_PATTERNS:
        m = re.search(pattern, text)
        if m:
            return m.group(1).strip()
    return fallback


def tool_names(tools):
    names = {}
    for t in tools or []:
        if "name" in t:                                   # Anthropic, OpenAI
            names[t["name"]] = t
        for fd in t.get("functionDeclarations", []) or []:  # Gemini
            names[fd["name"]] = fd
    return names


def params_of(tool):
    """Property names of a tool's JSON schema (any of the three APIs)."""
    for key in ("input_schema", "parameters", "parametersJsonSchema"):
        schema = tool.get(key)
        if isinstance(schema, dict):
            return list((schema.get("properties") or {}).keys())
    return []


def pick(params, candidates, default):
    for c in candidates:
        if c in params:
            return c
    return default


# --------------------------------------------------------------------------
# Mapping an action to a concrete tool call of one CLI
# --------------------------------------------------------------------------

def step(turn):
    """Shell-call description.  It carries the turn number so that repeated
    identical commands still differ: Gemini CLI stops a run ("Loop detected")
    after 5 identical consecutive tool calls."""
    return "Run a shell command (step %d)" % (turn + 1)


def anthropic_call(action, tools, cwd, turn):
    """Returns (tool_name, input) or None for text."""
    if "read" in action:
        return "Read", {"file_path": resolve(action["read"], cwd)}
    if "write" in action:
        return "Write", {"file_path": resolve(action["write"], cwd), "content": action.get("content", "")}
    if "shell" in action:
        return "Bash", {"command": action["shell"], "description": step(turn)}
    return None


def gemini_call(action, tools, cwd, turn):
    if "read" in action:
        p = params_of(tools.get("read_file", {}))
        return "read_file", {pick(p, ["file_path", "absolute_path", "path"], "file_path"): resolve(action["read"], cwd)}
    if "write" in action:
        p = params_of(tools.get("write_file", {}))
        return "write_file", {pick(p, ["file_path", "absolute_path", "path"], "file_path"): resolve(action["write"], cwd),
                              "content": action.get("content", "")}
    if "shell" in action:
        return "run_shell_command", {"command": action["shell"], "description": step(turn)}
    return None


def codex_shell_call(command, tools, cwd):
    """A Codex shell tool call running `command` (bash -lc string)."""
    if "exec_command" in tools:
        args = {"cmd": command}
        if cwd:
            args["workdir"] = cwd
        return "function", "exec_command", args
    if "shell_command" in tools:
        args = {"command": command}
        if cwd:
            args["workdir"] = cwd
        return "function", "shell_command", args
    args = {"command": ["bash", "-lc", command]}
    if cwd:
        args["workdir"] = cwd
    return "function", "shell", args


def codex_call(action, tools, cwd):
    """Returns (kind, name, payload): kind "function" (payload: dict of
    arguments) or "custom" (payload: freeform input string)."""
    if "read" in action:
        return codex_shell_call("cat " + shell_quote(resolve(action["read"], cwd)), tools, cwd)
    if "write" in action:
        path = resolve(action["write"], cwd)
        content = action.get("content", "")
        if "apply_patch" in tools and content.endswith("\n"):
            # "*** Add File:" overwrites an existing file; every line gets '+'.
            lines = "".join("+" + line + "\n" for line in content[:-1].split("\n"))
            patch = "*** Begin Patch\n*** Add File: %s\n%s*** End Patch\n" % (path, lines)
            tool = tools["apply_patch"]
            if tool.get("type") == "custom":
                return "custom", "apply_patch", patch
            return "function", "apply_patch", {"input": patch}
        return codex_shell_call(heredoc(path, content), tools, cwd)
    if "shell" in action:
        return codex_shell_call(action["shell"], tools, cwd)
    return None


# --------------------------------------------------------------------------
# Turn counting (stateless) per API
# --------------------------------------------------------------------------

def anthropic_turns(body):
    n = 0
    for m in body.get("messages", []):
        if m.get("role") == "assistant" and isinstance(m.get("content"), list):
            if any(b.get("type") == "tool_use" for b in m["content"] if isinstance(b, dict)):
                n += 1
    return n


def openai_turns(body):
    items = body.get("input", [])
    if not isinstance(items, list):
        return 0
    kinds = ("function_call", "custom_tool_call", "local_shell_call")
    return sum(1 for it in items if isinstance(it, dict) and it.get("type") in kinds)


def gemini_turns(body):
    n = 0
    for c in body.get("contents", []):
        if c.get("role") == "model" and any("functionCall" in p for p in c.get("parts", [])):
            n += 1
    return n


# --------------------------------------------------------------------------
# JSON filler for Gemini helper calls that ask for a JSON schema
# --------------------------------------------------------------------------

def fill_schema(schema):
    t = str(schema.get("type", "")).lower()
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    if t == "object":
        return {k: fill_schema(v) for k, v in (schema.get("properties") or {}).items()}
    if t == "array":
        return []
    if t in ("integer", "number"):
        return 0
    if t == "boolean":
        return False
    return "ok"


# --------------------------------------------------------------------------
# HTTP handler
# --------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "kta-model-server/1"

    def log_message(self, fmt, *args):  # keep stderr quiet
        if self.server.verbose:
            sys.stderr.write("model_server: " + (fmt % args) + "\n")

    # ---- plumbing -------------------------------------------------------

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()  # blank line after the last chunk
                    break
                raw += self.rfile.read(size)
                self.rfile.readline()      # CRLF after each chunk
        else:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            raw = gzip.decompress(raw)
        # Other encodings (e.g. zstd) cannot be decoded with the standard
        # library; none of the three CLIs used one against this server.
        text = raw.decode("utf-8", "replace")
        try:
            return json.loads(text) if text else None
        except ValueError:
            return text

    def log_request_line(self, api, kind, turn, body):
        keep = ("user-agent", "content-type", "anthropic-version", "anthropic-beta",
                "x-app", "x-goog-api-client", "originator", "session_id", "version",
                "accept", "openai-beta", "content-encoding")
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() in keep}
        has_auth = any(self.headers.get(h) for h in ("Authorization", "x-api-key", "x-goog-api-key"))
        headers["authorization"] = "yes" if has_auth else "no"
        entry = {"time": time.time(), "method": self.command, "path": self.path, "api": api,
                 "kind": kind, "turn": turn, "headers": headers, "body": body}
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self.server.log_lock:
            with open(self.server.log_path, "a", encoding="utf-8") as f:
                f.write(line)

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def sse(self, data, event=None):
        chunk = ""
        if event:
            chunk += "event: %s\n" % event
        chunk += "data: %s\n\n" % json.dumps(data)
        self.wfile.write(chunk.encode())
        self.wfile.flush()

    # ---- dispatch -------------------------------------------------------

    def do_HEAD(self):
        self.log_request_line("other", "probe", None, None)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path = urlsplit(self.path).path
        if path.rstrip("/").endswith("/models"):
            self.log_request_line("openai", "models", None, None)
            self.send_json({"object": "list", "data": [], "models": []})
            return
        self.log_request_line("other", "probe", None, None)
        if path == "/":
            self.send_json({"ok": True})
        else:
            self.send_json({"error": {"type": "not_found", "message": "no such path"}}, 404)

    def do_POST(self):
        body = self.read_body()
        path = urlsplit(self.path).path
        try:
            if path.endswith("/messages/count_tokens"):
                self.log_request_line("anthropic", "count_tokens", None, body)
                self.send_json({"input_tokens": 100})
            elif path.endswith("/messages"):
                self.anthropic(body)
            elif path.endswith("/responses"):
                self.openai(body)
            elif ":countTokens" in path:
                self.log_request_line("gemini", "count_tokens", None, body)
                self.send_json({"totalTokens": 100})
            elif ":streamGenerateContent" in path or ":generateContent" in path:
                self.gemini(body, path)
            else:
                self.log_request_line("other", "unknown", None, body)
                self.send_json({"error": {"type": "not_found", "message": "no such path"}}, 404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ---- Anthropic Messages API -----------------------------------------

    def anthropic(self, body):
        body = body if isinstance(body, dict) else {}
        tools = tool_names(body.get("tools"))
        main = "Bash" in tools or "Read" in tools
        script = self.server.script
        if main:
            turn = anthropic_turns(body)
            action, usage = script.turn(turn)
            cwd = find_cwd([body.get("system"), body.get("messages")], self.server.cwd)
            call = anthropic_call(action, tools, cwd, turn)
        else:
            turn, call, usage = None, None, script.side_usage
            action = {"text": "OK"}
        self.log_request_line("anthropic", "main" if main else "side", turn, body)

        msg_id = "msg_" + uuid.uuid4().hex[:24]
        model = body.get("model", "model")
        u = {"input_tokens": usage["input"], "output_tokens": usage["output"],
             "cache_creation_input_tokens": usage["cache_write"],
             "cache_read_input_tokens": usage["cache_read"]}
        if call:
            block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:24], "name": call[0], "input": call[1]}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": action["text"]}
            stop = "end_turn"

        if not body.get("stream"):
            self.send_json({"id": msg_id, "type": "message", "role": "assistant", "model": model,
                            "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": u})
            return
        self.start_sse()
        self.sse({"type": "message_start", "message": {
            "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": dict(u, output_tokens=1)}}, "message_start")
        if call:
            self.sse({"type": "content_block_start", "index": 0,
                      "content_block": dict(block, input={})}, "content_block_start")
            self.sse({"type": "content_block_delta", "index": 0,
                      "delta": {"type": "input_json_delta", "partial_json": json.dumps(call[1])}},
                     "content_block_delta")
        else:
            self.sse({"type": "content_block_start", "index": 0,
                      "content_block": {"type": "text", "text": ""}}, "content_block_start")
            self.sse({"type": "content_block_delta", "index": 0,
                      "delta": {"type": "text_delta", "text": block["text"]}}, "content_block_delta")
        self.sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        self.sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                  "usage": u}, "message_delta")
        self.sse({"type": "message_stop"}, "message_stop")

    # ---- OpenAI Responses API -------------------------------------------

    def openai(self, body):
        body = body if isinstance(body, dict) else {}
        tools = tool_names(body.get("tools"))
        main = bool(tools)
        script = self.server.script
        if main:
            turn = openai_turns(body)
            action, usage = script.turn(turn)
            call = codex_call(action, tools, find_cwd(body.get("input"), self.server.cwd))
        else:
            turn, call, usage = None, None, script.side_usage
            action = {"text": "OK"}
        self.log_request_line("openai", "main" if main else "side", turn, body)

        resp_id = "resp_" + uuid.uuid4().hex[:24]
        item_id = uuid.uuid4().hex[:24]
        if call is None:
            item = {"type": "message", "role": "assistant", "id": "msg_" + item_id, "status": "completed",
                    "content": [{"type": "output_text", "text": action["text"], "annotations": []}]}
        elif call[0] == "custom":
            item = {"type": "custom_tool_call", "id": "ctc_" + item_id, "status": "completed",
                    "call_id": "call_" + item_id, "name": call[1], "input": call[2]}
        else:
            item = {"type": "function_call", "id": "fc_" + item_id, "status": "completed",
                    "call_id": "call_" + item_id, "name": call[1], "arguments": json.dumps(call[2])}
        usage_obj = {"input_tokens": usage["input"],
                     "input_tokens_details": {"cached_tokens": usage["cache_read"]},
                     "output_tokens": usage["output"],
                     "output_tokens_details": {"reasoning_tokens": 0},
                     "total_tokens": usage["input"] + usage["output"]}
        response = {"id": resp_id, "object": "response", "created_at": int(time.time()),
                    "model": body.get("model", "model"), "status": "completed", "output": [item],
                    "usage": usage_obj}
        if not body.get("stream"):
            self.send_json(response)
            return
        self.start_sse()
        self.sse({"type": "response.created", "response": dict(response, status="in_progress", output=[],
                                                               usage=None)}, "response.created")
        self.sse({"type": "response.output_item.added", "output_index": 0, "item": item},
                 "response.output_item.added")
        if call is None:
            self.sse({"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0,
                      "content_index": 0, "delta": action["text"]}, "response.output_text.delta")
        self.sse({"type": "response.output_item.done", "output_index": 0, "item": item},
                 "response.output_item.done")
        self.sse({"type": "response.completed", "response": response}, "response.completed")

    # ---- Gemini API -----------------------------------------------------

    def gemini(self, body, path):
        body = body if isinstance(body, dict) else {}
        tools = tool_names(body.get("tools"))
        main = "run_shell_command" in tools or "read_file" in tools
        script = self.server.script
        model = path.split("/models/")[-1].split(":")[0]
        gen_cfg = body.get("generationConfig") or {}
        if main:
            turn = gemini_turns(body)
            action, usage = script.turn(turn)
            cwd = find_cwd([body.get("systemInstruction"), body.get("contents")], self.server.cwd)
            call = gemini_call(action, tools, cwd, turn)
            part = {"functionCall": {"name": call[0], "args": call[1]}} if call else {"text": action["text"]}
        else:
            turn, usage = None, script.side_usage
            schema = gen_cfg.get("responseJsonSchema") or gen_cfg.get("responseSchema")
            if schema:  # helper call wanting JSON, e.g. the next-speaker check
                part = {"text": json.dumps(fill_schema(schema))}
            else:
                part = {"text": "OK"}
        self.log_request_line("gemini", "main" if main else "side", turn, body)

        response = {"candidates": [{"content": {"role": "model", "parts": [part]},
                                    "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": usage["input"],
                                      "candidatesTokenCount": usage["output"],
                                      "cachedContentTokenCount": usage["cache_read"],
                                      "totalTokenCount": usage["input"] + usage["output"]},
                    "modelVersion": model, "responseId": uuid.uuid4().hex[:24]}
        if ":generateContent" in path:
            self.send_json(response)
            return
        self.start_sse()
        self.wfile.write(("data: %s\r\n\r\n" % json.dumps(response)).encode())
        self.wfile.flush()


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cwd", default=None, help="fallback working directory of the CLI")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    with open(args.script, encoding="utf-8") as f:
        script = Script(json.load(f))

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.script = script
    server.log_path = args.log
    server.log_lock = threading.Lock()
    server.cwd = args.cwd
    server.verbose = args.verbose

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(tmp, args.port_file)

    server.serve_forever()
    server.server_close()


if __name__ == "__main__":
    main()
