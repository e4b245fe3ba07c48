"""Adapter for kalyke-apns (LIB-kalyke): ApnsClient for alerts, LiveActivityClient for Live Activity pushes, each
created once, pointed at the mock by overriding `_base_url` (trust through SSL_CERT_FILE). Pushes go one at a time,
in order; when the scenario's pushes are all due at once they are handed to kalyke together (asyncio.gather)."""
import asyncio
import json
import os

import adapterlib as lib

os.environ["SSL_CERT_FILE"] = lib.CA_FILE
from kalyke import ApnsClient, ApnsConfig, ApnsPriority, ApnsPushType, LiveActivityApnsConfig, LiveActivityClient  # noqa: E402


def at_mock(cls):
    class AtMock(cls):
        @property
        def _base_url(self):
            return lib.ENV["APNS_MOCK_URL"]
    return AtMock


async def main():
    options = dict(use_sandbox=True, team_id=lib.TEAM_ID, auth_key_id=lib.KEY_ID, auth_key_filepath=lib.KEY_FILE)
    alerts, activities = at_mock(ApnsClient)(**options), at_mock(LiveActivityClient)(**options)
    if lib.due_at_once():
        outcomes = await asyncio.gather(*[send(alerts, activities, push) for push in lib.pushes()])
        for index, (push, outcome) in enumerate(zip(lib.pushes(), outcomes)):
            lib.report(index, outcome)
            print(f"kalyke: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
        return 0
    dead = set()
    for index, push in enumerate(lib.pushes()):
        if push["deviceToken"] in dead:
            continue
        outcome = await send(alerts, activities, push)
        lib.report(index, outcome)
        print(f"kalyke: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
        if outcome and any(gone in outcome for gone in lib.GONE):
            dead.add(push["deviceToken"])
    return 0


async def send(alerts, activities, push):
    priority = ApnsPriority(push.get("priority", 10))
    try:
        if push["pushType"] == "liveactivity":
            await activities.send_message(device_token=push["deviceToken"], payload=json.loads(push["payload"]),
                                          apns_config=LiveActivityApnsConfig(topic=push["topic"], priority=priority))
        else:
            await alerts.send_message(device_token=push["deviceToken"], payload=json.loads(push["payload"]),
                                      apns_config=ApnsConfig(topic=push["topic"], push_type=ApnsPushType(push["pushType"]),
                                                             priority=priority))
        return None
    except Exception as error:  # kalyke raises one exception class per APNs reason
        return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
