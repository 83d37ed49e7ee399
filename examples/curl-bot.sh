#!/usr/bin/env bash
# A bot that runs execute_code itself, with curl alone for the chat: it
# creates a chat with a client tool, sends a message, sees requires_action,
# runs the program (here with python3), posts the result and reads the answer.
set -euo pipefail
BASE="${1:-http://127.0.0.1:3210}"
JAR="$(mktemp)"
trap 'rm -f "$JAR"' EXIT

# METHOD PATH [JSON]: a JSON request that keeps the harness's participant cookie.
api() {
  curl -sS -b "$JAR" -c "$JAR" -X "$1" "$BASE$2" \
    -H 'content-type: application/json' -H 'accept: application/json' ${3:+--data "$3"}
}
field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }
json_string() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | awk '{ printf "%s\\n", $0 }'; }

# 1. Who is asking: the harness hands this bot a signed participant cookie.
echo "session: $(api GET /api/session)"

# 2. A chat whose execute_code the bot runs itself, beside the server's tools.
chat=$(api POST /api/chats '{"tools":[{"name":"execute_code","description":"Run a Python 3 program; the bot runs it and answers with stdout, stderr and the exit code.","input_schema":{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}}]}')
id=$(echo "$chat" | field id)
echo "chat: $id ($(echo "$chat" | field status))"

# 3. A message: the model calls execute_code, and the chat waits for the bot.
reply=$(api POST "/api/chats/$id/messages" '{"text":"```python\nprint(6 * 7)\n```"}')
call=$(echo "$reply" | field tool_call_id)
program=$(printf '%b' "$(echo "$reply" | field code)")
echo "status: $(echo "$reply" | field status); call $call wants to run: $program"

# 4. Run it and post the result in the kit's result contract (ExecuteCodeResult).
set +e
stdout=$(python3 -c "$program" 2>/tmp/bot-stderr.$$)
exit_code=$?
set -e
stderr=$(cat /tmp/bot-stderr.$$) && rm -f /tmp/bot-stderr.$$
answer=$(api POST "/api/chats/$id/tool-results" "{\"results\":[{\"tool_call_id\":\"$call\",\"output\":{\"status\":\"completed\",\"stdout\":\"$(json_string "$stdout")\",\"stderr\":\"$(json_string "$stderr")\",\"exitCode\":$exit_code,\"signal\":null,\"wallTimeMs\":null,\"truncated\":{\"stdout\":0,\"stderr\":0}}}]}")
echo "status: $(echo "$answer" | field status)"
echo "answer: $(echo "$answer" | grep -o '"type":"text","text":"[^"]*"' | tail -1 | cut -d'"' -f8)"

# 5. The same call answered again: 409, the first answer stands.
echo "again: HTTP $(curl -sS -o /dev/null -w '%{http_code}' -b "$JAR" -X POST "$BASE/api/chats/$id/tool-results" \
  -H 'content-type: application/json' --data "{\"results\":[{\"tool_call_id\":\"$call\",\"output\":\"x\",\"is_error\":true}]}")"
