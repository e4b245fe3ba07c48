"""Adapter for django-push-notifications 3.3.0 (LIB-django-push-notifications) with its asyncio backend
(`push_notifications.apns_async`, on aioapns 3.x), driven the way a Django project uses it: a settings module
(here `settings.configure`), the `push_notifications` app, a migrated database (SQLite in memory), one `APNSDevice`
row per device token, and `APNSDevice.send_message` (or, for pushes due at once, `APNSDevice.objects.send_message`,
the library's bulk call). The library marks a device inactive after 410 Unregistered; the adapter, like a Django
application, sends only to active devices. aioapns is pointed at the mock the way the aioapns adapter does it;
trust goes through SSL_CERT_FILE (the library builds its own client and SSL context).

What the library cannot express is reported, not sent: it has no Live Activity push type (no `apns-push-type`
parameter, `aps` built from alert/badge/sound/thread-id), so Live Activity pushes are skipped."""
import json
import os

import adapterlib as lib

os.environ["SSL_CERT_FILE"] = lib.CA_FILE
import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "push_notifications"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField", USE_TZ=True,
    PUSH_NOTIFICATIONS_SETTINGS={
        "APNS_AUTH_KEY_PATH": lib.KEY_FILE, "APNS_AUTH_KEY_ID": lib.KEY_ID, "APNS_TEAM_ID": lib.TEAM_ID,
        "APNS_TOPIC": lib.BUNDLE_ID, "APNS_USE_SANDBOX": True,
    },
)
django.setup()
from django.core.management import call_command  # noqa: E402

call_command("migrate", verbosity=0)

import aioapns.connection as connection  # noqa: E402
from push_notifications.apns_async import Alert  # noqa: E402
from push_notifications.models import APNSDevice  # noqa: E402

connection.APNsDevelopmentClientProtocol.APNS_SERVER = lib.HOST
connection.APNsTLSClientProtocol.APNS_PORT = lib.PORT


def message(push):
    """send_message's arguments for the scenario's payload: alert (a string or an Alert), sound, badge, priority."""
    aps = json.loads(push["payload"]).get("aps", {})
    alert = aps.get("alert")
    if isinstance(alert, dict):
        alert = Alert(**{key: value for key, value in alert.items() if key in ("title", "subtitle", "body")})
    options = {key: aps[key] for key in ("sound", "badge") if key in aps}
    if "priority" in push:
        options["priority"] = push["priority"]
    return alert, options


def outcome_of(call):
    try:
        result = call()
        return None if "Success" in json.dumps(result) else json.dumps(result)
    except Exception as error:  # APNSError("One or more errors failed with errors: Unregistered"), …
        return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"


def main():
    pushes = lib.pushes()
    for push in pushes:
        APNSDevice.objects.get_or_create(registration_id=push["deviceToken"])
    sendable = [push for push in pushes if push["pushType"] != "liveactivity"]
    for push in pushes:
        if push["pushType"] == "liveactivity":
            print(f"django-push-notifications: {push['deviceToken'][:8]}… not sent: no Live Activity push type", flush=True)
    if lib.due_at_once() and sendable and len({push["payload"] for push in sendable}) == 1:
        alert, options = message(sendable[0])
        devices = APNSDevice.objects.filter(registration_id__in=[push["deviceToken"] for push in sendable], active=True)
        print(f"django-push-notifications: bulk to {devices.count()} devices: "
              f"{outcome_of(lambda: devices.send_message(alert, **options)) or 'accepted'}", flush=True)
        return 0
    # The bulk call above says one thing for all devices, so only single sends are reported to the cross-check.
    for index, push in enumerate(pushes):
        if push["pushType"] == "liveactivity":
            continue
        device = APNSDevice.objects.get(registration_id=push["deviceToken"])
        if not device.active:  # the library deactivated it after a 410
            continue
        alert, options = message(push)
        outcome = outcome_of(lambda: device.send_message(alert, **options))
        lib.report(index, outcome)
        print(f"django-push-notifications: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
