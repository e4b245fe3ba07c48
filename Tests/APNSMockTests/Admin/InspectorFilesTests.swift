import APNSMock
import APNSCore
import APNSStore
import Foundation
import Testing

/// The inspector's files are read on the first request for one of them (not when the server is built, so start-up
/// does not wait for them), then served from memory.
@Suite struct InspectorFilesTests {
    private func get(_ router: AdminRouter, _ uri: String) -> AdminResponse? {
        guard case .respond(let response) = router.route(AdminRequest(method: "GET", uri: uri)) else { return nil }
        return response
    }

    @Test func readOnTheFirstRequestThenServedFromMemory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InMemoryDeliveryStore()
        defer { store.close() }
        let router = AdminRouter(
            store: store, backend: FakeBackend(), bearerToken: nil, inspector: InspectorFiles(directory: directory))

        // Written after the inspector was made: still served, as nothing was read yet.
        try Data("<p>first</p>".utf8).write(to: directory.appendingPathComponent("index.html"))
        let page = try #require(get(router, "/"))
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self) == "<p>first</p>")

        // Read once: later changes to the directory are not seen.
        try Data("<p>second</p>".utf8).write(to: directory.appendingPathComponent("index.html"))
        try Data("x".utf8).write(to: directory.appendingPathComponent("late.js"))
        #expect(String(decoding: try #require(get(router, "/index.html")).body, as: UTF8.self) == "<p>first</p>")
        #expect(get(router, "/late.js")?.status == 404)
    }
}

/// The inspector is compiled into the binary: what it serves is exactly the files of `Sources/APNSMock/Admin/Inspector/`,
/// with no bundle or directory beside the binary (a copied binary used to crash on the first page).
@Suite struct EmbeddedInspectorTests {
    @Test func servesEveryFileOfTheInspectorDirectoryByteForByte() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/APNSMock/Admin/Inspector")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty)
        let inspector = InspectorFiles.bundled()
        #expect(inspector.names == names)
        let store = InMemoryDeliveryStore()
        defer { store.close() }
        let router = AdminRouter(store: store, backend: FakeBackend(), bearerToken: nil, inspector: inspector)
        for name in names {
            guard case .respond(let response) = router.route(AdminRequest(method: "GET", uri: "/" + name)) else {
                Issue.record("\(name): not answered"); continue
            }
            #expect(response.status == 200, "\(name)")
            #expect(response.body == FileManager.default.contents(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
    }
}
