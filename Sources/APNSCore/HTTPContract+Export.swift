/// APNs code is written against the HTTP contract (requests, responses, connection facts, time), so every module
/// that imports APNSCore sees it too. The transport imports HTTPContract alone and never sees an APNs type.
@_exported import HTTPContract
