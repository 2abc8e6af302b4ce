# capenv itself, as a container image (README "Containers").
#
#   docker build -t capenv:0.1.0 .
#   export CAPENV_DATA_TOKEN=$(openssl rand -hex 32)  # the grader's token, for the grader too
#   docker run --rm -e CAPENV_DATA_TOKEN -v "$PWD/env:/env:ro" -p 8000:8000 -p 127.0.0.1:8001:8001 \
#       capenv:0.1.0 serve /env --http 0.0.0.0:8000 --data 0.0.0.0:8001
#
# The agent under test gets port 8000 (MCP at /mcp, the application's own paths at the root); the
# grader's data plane answers on its own listener, port 8001: publish it only where the grader runs.
# With CAPENV_DATA_TOKEN set, port 8001 also needs Authorization: Bearer TOKEN; without it any
# container on the same network reaches the data plane.
# `capenv export` writes a Dockerfile beside each exported environment that builds on this image.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /build
COPY pyproject.toml README.md LICENSE ./
COPY interpreter ./interpreter
COPY serving ./serving
COPY fleet ./fleet
COPY rules ./rules
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 capenv

WORKDIR /home/capenv
USER 10001
EXPOSE 8000 8001
ENTRYPOINT ["capenv"]
CMD ["--help"]
