/// What `apns-mock --version` prints. Bump with each release.
enum APNSMockVersion {
    static let current = "0.1.0"
}
