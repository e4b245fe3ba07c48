// TEMPORARY copy so the `auth` branch compiles alone; the `rules` branch owns this file.
public enum PushType: String, Sendable, Hashable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls
}
