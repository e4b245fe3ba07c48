"""Adapter for aioapns (LIB-aioapns): one APNs client for the whole run, pointed at the mock the way its tests do.
Pushes go one at a time, in order; when the scenario's pushes are all due at once they are handed to the client
together (asyncio.gather), as an asyncio application would."""
import asyncio
import json
import ssl

import aioapns.connection as connection
from aioapns import APNs, NotificationRequest, PushType

import adapterlib as lib

connection.APNsDevelopmentClientProtocol.APNS_SERVER = lib.HOST
connection.APNsTLSClientProtocol.APNS_PORT = lib.PORT


async def main():
    with open(lib.KEY_FILE) as key:
        client = APNs(key=key.read(), key_id=lib.KEY_ID, team_id=lib.TEAM_ID, topic=lib.BUNDLE_ID, use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=lib.CA_FILE))
    if lib.due_at_once():
        outcomes = await asyncio.gather(*[send(client, push) for push in lib.pushes()])
        for index, (push, outcome) in enumerate(zip(lib.pushes(), outcomes)):
            lib.report(index, outcome)
            print(f"aioapns: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
        return 0
    dead = set()
    for index, push in enumerate(lib.pushes()):
        if push["deviceToken"] in dead:
            continue
        outcome = await send(client, push)
        lib.report(index, outcome)
        print(f"aioapns: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
        if outcome and any(gone in outcome for gone in lib.GONE):
            dead.add(push["deviceToken"])
    return 0


async def send(client, push):
    request = NotificationRequest(device_token=push["deviceToken"], message=json.loads(push["payload"]),
                                  push_type=PushType(push["pushType"]), apns_topic=push["topic"],
                                  priority=push.get("priority"))
    try:
        response = await asyncio.wait_for(client.send_notification(request), timeout=30)
        return None if response.is_successful else f"{response.status} {response.description}"
    except Exception as error:
        return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
