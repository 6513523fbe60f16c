// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
/// Text that a render grows piece by piece — a span's, a run's, an adapter's line — grown so that
/// no buffer of 64 bytes or more is freed on the way. A `String` holds up to 15 bytes inline;
/// past that it is a heap buffer that doubles as it grows, freeing the one before, and the first
/// free of a buffer of 64 bytes or more costs a process ~31 k instructions: the runtime builds
/// the metadata of `_StringBreadcrumbs?` to destroy it (docs/performance.md, "Long strings").
/// So text that outgrows the inline form gets `room` bytes at once, enough for a tooltip's line,
/// and a one-shot render keeps what it grew until it exits.
public enum GrowingText {
    /// The most UTF-8 a `String` holds inline.
    public static let inline = 15
    /// The room text gets when it outgrows `inline`.
    public static let room = 480

    /// `text += more`, giving `text` its `room` first when this is what makes it outgrow `inline`.
    @inline(__always)
    public static func append(_ more: String, to text: inout String) {
        reserve(more.utf8.count, in: &text)
        text += more
    }

    /// Gives `text` its `room` when `count` more bytes would make it outgrow `inline` (for a
    /// writer that appends piece by piece, such as `SafeText.map(_:lines:into:escape:)`).
    @inline(__always)
    public static func reserve(_ count: Int, in text: inout String) {
        let now = text.utf8.count
        if now <= inline && now + count > inline { text.reserveCapacity(max(room, now + count)) }
    }
}
