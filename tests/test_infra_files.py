"""The deployment files in infra/ (container image, compose, Kubernetes) agree with the code.

No docker or cluster needed: the files are parsed (PyYAML) and checked against what the code reads
and runs — the environment variables services/platform/config.py knows, the gunicorn command line of
`empyrean up` (services/platform/launcher.py api_command) and the Celery worker's (workers/celery_app.py
worker_command). What this cannot show is that the image builds or the containers start
(infra/README.md, "What is tested").
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from services.games.queues import QUEUES
from services.platform.broker import WORKER_APP, worker_command
from services.platform.config import Config
from services.platform.entrypoints import API_APP
from services.platform.launcher import API_PREFIX, api_command

ROOT = Path(__file__).resolve().parent.parent
INFRA = ROOT / "infra"
K8S = INFRA / "k8s"
DOCKERFILE = INFRA / "Dockerfile"
ENTRYPOINT = INFRA / "container-entrypoint.sh"
IMAGE = "empyrean-replay"
ROLES = {"api", "worker", "beat", "migrate"}
REQUIRED = {"DATABASE_URL", "REDIS_URL"}
# Variables our containers may set that services/platform/config.py does not read, and who reads them.
NOT_CONFIG = {"WEB_CONCURRENCY": "gunicorn's worker count, read by infra/container-entrypoint.sh"}
CONFIG_VARS = set(Config.variables().values())


def test_config_variables():
    # Config declares each variable once (services/platform/config.py; the round trip through
    # Config.environment() is tests/test_config.py's)
    assert REQUIRED <= CONFIG_VARS and len(CONFIG_VARS) >= 15
    for name in NOT_CONFIG:
        assert name not in CONFIG_VARS
        assert name in ENTRYPOINT.read_text()


# -- compose ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((INFRA / "compose.yaml").read_text())


def _compose_default(value) -> int:
    """`${WORKERS:-2}` (compose interpolation) → 2; a plain number → itself."""
    if isinstance(value, int):
        return value
    match = re.fullmatch(r"\$\{\w+:-(\d+)\}", str(value))
    assert match, f"replicas {value!r} has no numeric default"
    return int(match.group(1))


def _ours(service: dict) -> bool:
    return str(service.get("image", "")).split(":")[0] == IMAGE


def test_compose_services(compose):
    services = compose["services"]
    assert {"api", "worker", "beat", "postgres", "redis", "flower", "migrate"} <= set(services)
    assert {name for name, s in services.items() if _ours(s)} == {"api", "worker", "beat", "migrate"}
    for name in ("api", "worker", "beat", "migrate"):
        service = services[name]
        assert service["command"] == [name]
        assert service["build"] == {"context": "..", "dockerfile": "infra/Dockerfile"}
        assert (INFRA / service["build"]["context"] / service["build"]["dockerfile"]).resolve() == DOCKERFILE
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")
    assert services["flower"]["image"].startswith("mher/flower")


def test_compose_replicas(compose):
    services = compose["services"]
    assert _compose_default(services["worker"]["deploy"]["replicas"]) > 1
    assert _compose_default(services["beat"].get("deploy", {}).get("replicas", 1)) == 1


def test_compose_environment(compose):
    anchor = compose["x-env"]
    assert REQUIRED <= set(anchor)
    for name, service in compose["services"].items():
        if not _ours(service):
            continue
        env = service["environment"]
        assert set(anchor.items()) <= set(env.items()), f"{name} does not take x-env"
        assert set(env) <= CONFIG_VARS | set(NOT_CONFIG), f"{name}: unknown {set(env) - CONFIG_VARS}"
        Config.from_env({k: str(v) for k, v in env.items()})  # every value is valid
    # the flower container watches the same broker the app uses
    assert compose["services"]["flower"]["environment"]["CELERY_BROKER_URL"] == anchor["REDIS_URL"]


def test_compose_order_and_health(compose):
    services = compose["services"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"
    for name in ("api", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for name in ("postgres", "redis", "api", "worker", "flower"):
        assert "healthcheck" in services[name], name
    assert f"{API_PREFIX}/health" in " ".join(services["api"]["healthcheck"]["test"])
    # only PostgreSQL keeps data
    assert set(compose.get("volumes", {})) == {"pgdata"}
    with_volumes = {name for name, s in services.items() if s.get("volumes")}
    assert with_volumes == {"postgres"}


# -- Kubernetes -------------------------------------------------------------------------------
def _documents(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


@pytest.fixture(scope="module")
def kustomization() -> dict:
    return yaml.safe_load((K8S / "kustomization.yaml").read_text())


@pytest.fixture(scope="module")
def manifests(kustomization) -> list[dict]:
    return [doc for name in kustomization["resources"] for doc in _documents(K8S / name)]


def _by_kind(manifests, kind) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in manifests if d["kind"] == kind}


def _containers(manifests):
    for doc in manifests:
        if doc["kind"] in ("Deployment", "StatefulSet", "Job"):
            for container in doc["spec"]["template"]["spec"]["containers"]:
                yield doc, container


def test_kustomization_lists_every_manifest(kustomization):
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files
    assert [i["name"] for i in kustomization["images"]] == [IMAGE]
    for path in [*K8S.glob("*.yaml"), *K8S.glob("try/*.yaml")]:
        for doc in _documents(path):
            assert "namespace" not in doc.get("metadata", {}), path  # namespace-less


def test_every_workload_has_requests_limits_and_probes(manifests):
    try_docs = [d for p in K8S.glob("try/*.yaml") for d in _documents(p)]
    for doc, container in _containers(manifests + try_docs):
        where = f"{doc['kind']} {doc['metadata']['name']}/{container['name']}"
        resources = container.get("resources", {})
        assert {"cpu", "memory"} <= set(resources.get("requests", {})), where
        assert {"cpu", "memory"} <= set(resources.get("limits", {})), where
        if doc["kind"] != "Job":
            assert "livenessProbe" in container or "readinessProbe" in container, where


def test_api_deployment(manifests):
    api = _by_kind(manifests, "Deployment")["empyrean-api"]
    assert api["spec"]["replicas"] >= 2
    (container,) = api["spec"]["template"]["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == f"{API_PREFIX}/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == f"{API_PREFIX}/health"
    port = container["ports"][0]
    assert port["containerPort"] == int(_k8s_config(manifests)["EMPYREAN_API_PORT"])
    assert container["readinessProbe"]["httpGet"]["port"] == port["name"]
    # the health routes exist where the probes look
    health = (ROOT / "services" / "api" / "health.py").read_text()
    assert '.get("/health")' in health and '.get("/ready")' in health


def test_services_pdb_and_hpa_select_real_pods(manifests):
    deployments = _by_kind(manifests, "Deployment")
    labels = {name: d["spec"]["template"]["metadata"]["labels"] for name, d in deployments.items()}
    for name, d in deployments.items():
        assert d["spec"]["selector"]["matchLabels"].items() <= labels[name].items()
    for service in _by_kind(manifests, "Service").values():
        assert any(service["spec"]["selector"].items() <= pod.items() for pod in labels.values())
    (pdb,) = _by_kind(manifests, "PodDisruptionBudget").values()
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels["empyrean-api"].items()
    (hpa,) = _by_kind(manifests, "HorizontalPodAutoscaler").values()
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                             "name": "empyrean-worker"}
    assert hpa["spec"]["minReplicas"] > 1
    assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    assert "KEDA" in (K8S / "worker.yaml").read_text()


def test_worker_and_beat_replicas(manifests):
    deployments = _by_kind(manifests, "Deployment")
    assert deployments["empyrean-worker"]["spec"]["replicas"] > 1
    beat = deployments["empyrean-beat"]["spec"]
    assert beat["replicas"] == 1 and beat["strategy"]["type"] == "Recreate"
    (worker,) = deployments["empyrean-worker"]["spec"]["template"]["spec"]["containers"]
    probe = " ".join(worker["livenessProbe"]["exec"]["command"])
    hostname = worker_command(Config())[worker_command(Config()).index("--hostname") + 1]
    assert "inspect ping" in probe and "-A workers.celery_app" in probe
    assert hostname.replace("%h", "$HOSTNAME") in probe


def _k8s_config(manifests) -> dict[str, str]:
    (configmap,) = _by_kind(manifests, "ConfigMap").values()
    return configmap["data"]


def test_k8s_environment(manifests):
    configmaps = {n: d["data"] for n, d in _by_kind(manifests, "ConfigMap").items()}
    secrets = {n: d["stringData"] for n, d in _by_kind(manifests, "Secret").items()}
    assert "EXAMPLE" in (K8S / "secret.example.yaml").read_text()
    roles = set()
    images = set()
    for doc, container in _containers(manifests):
        if container["image"].split(":")[0] != IMAGE:
            continue
        images.add(container["image"])
        roles.update(container["args"])
        env: dict[str, str] = {}
        for source in container.get("envFrom", []):
            if "configMapRef" in source:
                env.update(configmaps[source["configMapRef"]["name"]])
            else:
                env.update(secrets[source["secretRef"]["name"]])
        env.update({e["name"]: e["value"] for e in container.get("env", [])})
        where = f"{doc['kind']} {doc['metadata']['name']}"
        assert REQUIRED <= set(env), where
        assert set(env) <= CONFIG_VARS | set(NOT_CONFIG), f"{where}: unknown {set(env) - CONFIG_VARS}"
        Config.from_env(env)
        assert "command" not in container, f"{where}: the image's entrypoint picks the role"
    assert images == {IMAGE}  # kustomization's `images` sets the tag for every part at once
    assert roles == ROLES
    (job,) = _by_kind(manifests, "Job").values()
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == ["migrate"]


# -- the image and its command lines ----------------------------------------------------------
def _entrypoint_commands() -> dict[str, list[str]]:
    """Each role's `exec ...` command of container-entrypoint.sh, as words (line continuations joined)."""
    text = ENTRYPOINT.read_text().replace("\\\n", " ")
    commands = {}
    for role, body in re.findall(r"^\s*([\w*]+)\)\n(.*?);;", text, flags=re.S | re.M):
        (line,) = [ln for ln in body.splitlines() if ln.strip().startswith("exec ")]
        commands[role] = shlex.split(line.strip())[1:]
    return commands


def test_entrypoint_roles():
    commands = _entrypoint_commands()
    assert ROLES <= set(commands)
    assert commands["migrate"][:3] == ["empyrean", "db", "upgrade"]


def test_api_command_is_that_of_empyrean_up():
    ours = _entrypoint_commands()["api"]
    up = api_command(Config())
    assert ours[:3] == ["python", "-m", "gunicorn"] and up[1:3] == ["-m", "gunicorn"]
    assert ours[-1] == up[-1] == API_APP == "services.platform.entrypoints:api_app()"
    bind = ours[ours.index("--bind") + 1]
    assert bind == "${EMPYREAN_API_HOST:-0.0.0.0}:${EMPYREAN_API_PORT:-8000}"
    assert ours[ours.index("--workers") + 1] == "${WEB_CONCURRENCY:-2}"
    # every other option of `up`'s command line, with the same value
    skip = {"--bind", "--workers"}
    i = 3
    while i < len(up) - 1:
        option = up[i]
        has_value = i + 1 < len(up) - 1 and not up[i + 1].startswith("-")
        if option not in skip:
            assert option in ours, option
            if has_value:
                assert ours[ours.index(option) + 1] == up[i + 1], option
        i += 2 if has_value else 1


def test_worker_command_is_that_of_worker_command():
    ours = _entrypoint_commands()["worker"]
    theirs = worker_command(Config())
    assert ours[:6] == ["python", "-m", "celery", "-A", WORKER_APP, "worker"]
    assert theirs[4] == WORKER_APP, "worker_command must start the worker through its entry point"
    assert theirs[1:6] == ours[1:6]
    assert ours[ours.index("--queues") + 1] == ",".join(QUEUES)
    assert ours[ours.index("--concurrency") + 1] == "${EMPYREAN_WORKER_CONCURRENCY:-2}"
    for option in ("--hostname", "--loglevel"):
        assert ours[ours.index(option) + 1] == theirs[theirs.index(option) + 1]
    assert {"--without-mingle", "--without-gossip"} <= set(ours) & set(theirs)
    assert "--beat" not in ours and "-B" not in ours  # beat is its own, single, container
    beat = _entrypoint_commands()["beat"]
    assert beat[:6] == ["python", "-m", "celery", "-A", WORKER_APP, "beat"]


def _dockerfile_instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def test_dockerfile():
    instructions = _dockerfile_instructions()
    text = DOCKERFILE.read_text()
    froms = [rest for kw, rest in instructions if kw == "FROM"]
    assert len(froms) >= 2  # multi-stage
    assert "ARG PYTHON_IMAGE=python:3.11-slim" in text
    assert all(f.startswith("${PYTHON_IMAGE}") for f in froms)
    runs = " ".join(rest for kw, rest in instructions if kw == "RUN")
    assert "python infra/build_native.py" in runs and "gcc" in runs
    assert re.search(r"pip install \.(\s|&|$)", runs) and "-e ." not in runs and "[test]" not in runs
    assert "COPY --from=native /opt/native /opt/native" in text
    env = " ".join(rest for kw, rest in instructions if kw == "ENV")
    assert "PYTHONPATH=/opt/native" in env
    assert ("USER", "10001:10001") in instructions
    assert ("ENTRYPOINT", '["/usr/local/bin/empyrean-container"]') in instructions
    assert ("CMD", '["api"]') in instructions
    assert "COPY infra/container-entrypoint.sh /usr/local/bin/empyrean-container" in text
    # the ENV defaults are config variables too
    names = set(re.findall(r"\b([A-Z][A-Z0-9_]+)=", env))
    assert names - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PIP_DISABLE_PIP_VERSION_CHECK",
                    "PIP_NO_CACHE_DIR", "PYTHONPATH"} <= CONFIG_VARS | set(NOT_CONFIG)


def test_dockerignore_keeps_out_the_bulk_but_not_what_is_copied():
    ignored = {ln.strip() for ln in (INFRA / "Dockerfile.dockerignore").read_text().splitlines()
               if ln.strip() and not ln.startswith("#")}
    assert {".venv", "var", "build", "tests", ".git"} <= ignored
    copied = {rest.split()[0].rstrip("/") for kw, rest in _dockerfile_instructions()
              if kw == "COPY" and not rest.startswith("--from")}
    for path in copied:
        assert (ROOT / path).exists(), path
        assert not any(path == i or path.startswith(i + "/") for i in ignored), path
