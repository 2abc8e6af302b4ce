"""The AgentEnv side of a served capenv environment (docs/agentenv.md).

``AgentEnvSession`` is what an agent loop, a trainer, or a task's verifier (the framework's
``env_outcome_verifier`` calls ``verify(mcp_url)``) opens on an environment that
``python -m capenv.serving.transport.agentenv`` serves. It is built on the framework's own
clients — ``agentenv_protocol.client`` for the card and the data plane, ``ToolSession`` for MCP —
imported when a session opens, so capenv does not depend on them
(``pip install agentenv-framework-protocol``)::

    async with AgentEnvSession("http://127.0.0.1:18765", data_url="http://127.0.0.1:18766") as env:
        names = [tool.name for tool in await env.tools()]
        answer = await env.call("post_posts", {"body": {"title": "t"}})   # {status, body, state}
        document = await env.state()                                     # data/get's document
        await env.reset()                                                # data/reset
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import urlsplit

INSTALL_HINT = "the AgentEnv client needs its protocol package: pip install agentenv-framework-protocol"


def environment_url(mcp_url: str) -> str:
    """The base URL of a server the framework deployed with no gateway, from its ``mcp_url``."""
    parts = urlsplit(mcp_url)
    if not parts.scheme or not parts.netloc:
        raise ValueError(f"not an absolute URL: {mcp_url!r}")
    return f"{parts.scheme}://{parts.netloc}"


class ToolCallAnswer:
    """A tool call's answer: capenv's structured result (``{status, content_type, body, state | replay}``,
    or a refusal's ``{error, message, …}``) and whether the call was refused."""

    def __init__(self, structured: dict[str, Any], is_error: bool) -> None:
        self.structured, self.is_error = structured, is_error

    def __repr__(self) -> str:
        return f"ToolCallAnswer(is_error={self.is_error}, structured={self.structured!r})"


class AgentEnvSession:
    """One MCP session and the data plane of one served environment; use it on one event loop."""

    def __init__(self, base_url: str, *, data_url: str | None = None, timeout: float = 120.0) -> None:
        """``base_url``: the agent's listener (card, MCP); ``data_url``: the grader's own listener
        (``--data``), where data/get, data/reset and data/add are served (default ``base_url``)."""
        self.base_url = base_url.rstrip("/")
        self.data_url = (data_url or base_url).rstrip("/")
        self.timeout = timeout
        self.card: dict[str, Any] = {}
        self._tools: Any = None
        self._protocol: Any = None

    async def __aenter__(self) -> AgentEnvSession:
        try:
            import agentenv_protocol
        except ImportError as exc:
            raise ImportError(INSTALL_HINT) from exc
        self._protocol = agentenv_protocol
        self.card = await agentenv_protocol.client.get_card(self.base_url, timeout=int(self.timeout))
        mcp_url = self.base_url + agentenv_protocol.client.mcp_path(self.card)
        self._tools = await agentenv_protocol.ToolSession(mcp_url=mcp_url, timeout=self.timeout).open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._tools is not None:
            await self._tools.close()
            self._tools = None

    async def tools(self) -> list[Any]:
        """The tools as ``tools/list`` gives them (``agentenv_protocol.EnvironmentTool``s)."""
        return await self._open().list_tools()

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolCallAnswer:
        result = await self._open().call_tool(name, arguments)
        return ToolCallAnswer(json.loads(result.text), result.isError)  # capenv's text is the structured result

    async def state(self) -> dict[str, Any]:
        """data/get: the whole state as one document (the JSON object ``capenv data get`` writes)."""
        self._open()
        answer = await self._protocol.client.get_data(self.data_url, timeout=int(self.timeout))
        return answer.parts[0].data

    async def reset(self) -> None:
        """data/reset: the initial state back, clock, counter and sequences too."""
        self._open()
        await self._protocol.client.reset_data(self.data_url, timeout=int(self.timeout))

    async def load(self, document: bytes) -> None:
        """data/add: install a state document as data/get gave it, sent as a file part so its bytes are kept."""
        self._open()
        protocol = self._protocol
        part = protocol.FilePart(file={"bytes": base64.b64encode(document).decode("ascii"),
                                       "mimeType": "application/json"})
        await protocol.client.add_data(self.data_url, [part], timeout=int(self.timeout))

    def _open(self) -> Any:
        if self._tools is None:
            raise RuntimeError("the session is not open: use `async with AgentEnvSession(url) as env`")
        return self._tools
