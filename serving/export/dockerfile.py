"""The ``Dockerfile`` ``capenv export`` writes beside its bundle: the environment as a container.

It builds on capenv's own image (the repository's ``Dockerfile``, tagged ``capenv:VERSION``;
another with ``--build-arg CAPENV_IMAGE=…``), copies the exported directory in, and serves it
as the security issue asks: the agent's listener (MCP at ``/mcp`` and the application's
paths) on port 8000, the grader's data plane on its own listener, port 8001, which only the
grader may reach. Both bind every interface inside the container; the ``Host`` names they
answer to are the loopback names on the same port (``--allow-host`` adds others). With
``CAPENV_DATA_TOKEN`` in the container's environment the grader's listener also needs that bearer
token (``capenv serve`` reads it), so another container on the same network cannot reach the
data plane; the comments tell operators to set it.
"""

from __future__ import annotations

AGENT_PORT = 8000
DATA_PORT = 8001
DIRECTORY_IN_IMAGE = "/env"
DATA_TOKEN_VARIABLE = "CAPENV_DATA_TOKEN"
"""What ``capenv serve`` reads the grader's token from (the transports' own constant, which export
may not import)."""


def dockerfile_text(version: str, environment: str) -> str:
    """The Dockerfile of an exported environment (``environment``: the capture it was built from)."""
    image = f"capenv:{version}"
    return "\n".join([
        f"# capenv environment of {environment}, as a container.",
        "#",
        "# capenv's own image first (from a capenv checkout):",
        f"#   docker build -t {image} .",
        "# then, in this directory:",
        "#   docker build -t my-environment .",
        f"#   export {DATA_TOKEN_VARIABLE}=$(openssl rand -hex 32)  # the grader's token, for the grader too",
        f"#   docker run --rm -e {DATA_TOKEN_VARIABLE} -p {AGENT_PORT}:{AGENT_PORT} "
        f"-p 127.0.0.1:{DATA_PORT}:{DATA_PORT} my-environment",
        "#",
        f"# The agent under test gets port {AGENT_PORT} (MCP at /mcp, the application's own paths at the root);",
        f"# the grader's data plane answers on port {DATA_PORT} (/_capenv/data/get | reset | add): publish it",
        "# only where the grader runs. Publish each port under its own number (Host is checked), or add",
        "# --allow-host NAME to the command.",
        f"# Set {DATA_TOKEN_VARIABLE} (as above: -e NAME alone keeps its value out of the command line):",
        f"# port {DATA_PORT} then answers only Authorization: Bearer TOKEN, as `capenv data --url` sends it from",
        f"# the same variable. Without it any container on the image's network reaches port {DATA_PORT}.",
        f"ARG CAPENV_IMAGE={image}",
        "FROM ${CAPENV_IMAGE}",
        f"COPY --chown=10001:10001 . {DIRECTORY_IN_IMAGE}",
        f"EXPOSE {AGENT_PORT} {DATA_PORT}",
        f'CMD ["serve", "{DIRECTORY_IN_IMAGE}", "--http", "0.0.0.0:{AGENT_PORT}", "--data", "0.0.0.0:{DATA_PORT}"]',
        "",
    ])
