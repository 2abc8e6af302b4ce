"""Run by the Python of an environment that has the ``openenv`` package (it cannot share capenv's:
it pins mcp 1.x): 20 episodes through OpenEnv's own ``GenericEnvClient`` against a capenv fleet.

    python episodes.py BASE_URL TOKEN     # prints one JSON line per episode
"""

import json
import sys

from openenv.core.generic_client import GenericEnvClient

base_url, token = sys.argv[1], sys.argv[2]
for episode in range(20):
    with GenericEnvClient(base_url=base_url, headers={"Authorization": f"Bearer {token}"}).sync() as env:
        started = env.reset()
        listed = env.step({"type": "list_tools"})
        made = env.step({"type": "call_tool", "tool_name": "post_posts", "arguments": {"body": {
            "title": f"episode-{episode}", "author": "openenv", "views": episode, "published": True, "tags": []}}})
        read = env.step({"type": "call_tool", "tool_name": "get_posts", "arguments": {}})
        state = env.state()
        print(json.dumps({"episode": episode, "id": started.observation["episode_id"],
                          "tools": len(listed.observation["tools"]), "made": made.observation["result"]["status"],
                          "titles": [p["title"] for p in read.observation["result"]["body"]],
                          "step_count": state["step_count"], "state": state["data"]}), flush=True)
