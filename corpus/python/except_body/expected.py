import asyncio
import functools
import logging

log = logging.getLogger(__name__)


def retry(times: int):
    def decorate(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return await fn(*args, **kwargs)
                except ConnectionError:
                    # gsd-debug-probe:start golden-run p1
                    # fmt: off
                    try:
                        try: __GSDDBG1_rt1__
                        except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
                            __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
                        if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
                            ("attempt", attempt),
                        ), "gsd-debug-probe/golden-run/p1")
                    except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
                    # fmt: on
                    # gsd-debug-probe:end golden-run p1
                    log.warning("attempt %d failed", attempt)
                    await asyncio.sleep(0.1 * attempt)
            raise ConnectionError(f"gave up after {times} attempts")
        return wrapper
    return decorate


@retry(times=3)
async def fetch_user(client, user_id: int) -> dict:
    response = await client.get(f"/users/{user_id}")
    response.raise_for_status()
    return response.json()


def chunks(rows, size):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def top_spenders(orders, n=3):
    ranked = sorted(
        orders,
        key=lambda o: (o["total"], o["id"]),
        reverse=True,
    )
    return [o["id"] for o in ranked[:n]]
