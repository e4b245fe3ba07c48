import Testing

@testable import APNSCore

/// The header index finds exactly what `HTTPRequest.value(_:)` and `values(_:)` find, for every indexed name:
/// absent headers, repeats (the first value wins, every value kept in order), names in another letter case (not
/// matched, as HTTP/2 names are lower case), look-alike names and other headers in between.
@Suite struct APNsHeaderIndexTests {
    static let headerLists: [[HeaderField]] = [
        [],
        [HeaderField("user-agent", "h2load"), HeaderField("content-length", "12")],
        [
            HeaderField("authorization", "bearer a.b.c"), HeaderField("apns-push-type", "alert"),
            HeaderField("apns-topic", "com.example.app"), HeaderField("apns-priority", "10"),
            HeaderField("apns-expiration", "0"), HeaderField("apns-id", "123e4567-e89b-12d3-a456-4266554400a0"),
            HeaderField("apns-collapse-id", "c"),
        ],
        [
            HeaderField("apns-topic", "first"), HeaderField("x-other", "1"), HeaderField("apns-topic", "second"),
            HeaderField("authorization", "bearer one"), HeaderField("authorization", "bearer two"),
            HeaderField("apns-topic", "third"),
        ],
        [
            HeaderField("APNS-TOPIC", "upper"), HeaderField("Authorization", "bearer upper"),
            HeaderField("apns-topic ", "trailing space"), HeaderField("apns-topicx", "longer"),
            HeaderField("apns-prioritx", "13 bytes, not a name"), HeaderField("authorizatioN", "13 bytes"),
            HeaderField("apns-priority", "5"),
        ],
        [HeaderField("apns-id", ""), HeaderField("apns-id", "x"), HeaderField("apns-collapse-id", "")],
    ]

    @Test(arguments: headerLists.indices)
    func lookupsAgreeWithTheRequestsOwn(index: Int) {
        let headers = Self.headerLists[index]
        let request = HTTPRequest(method: "POST", path: "/3/device/aa", headers: headers)
        let headerIndex = APNsHeaderIndex(headers)
        for name in APNsHeaderIndex.Name.allCases {
            #expect(headerIndex.value(name, in: headers) == request.value(name.fieldName), "\(name)")
            #expect(headerIndex.values(name, in: headers) == request.values(name.fieldName), "\(name)")
            #expect(headerIndex.isRepeated(name) == (request.values(name.fieldName).count > 1), "\(name)")
        }
    }

    @Test func aRepeatedSingleValueHeaderIsReportedButARepeatedAuthorizationIsNot() {
        let twoAuthorizations = APNsHeaderIndex([HeaderField("authorization", "a"), HeaderField("authorization", "b")])
        #expect(!twoAuthorizations.repeatsASingleValueHeader)
        for name in PushRule.singleValueHeaders {
            let index = APNsHeaderIndex([
                HeaderField(name, "1"), HeaderField("apns-topic-x", "2"), HeaderField(name, "3"),
            ])
            #expect(index.repeatsASingleValueHeader, "\(name)")
        }
        #expect(!APNsHeaderIndex(Self.headerLists[2]).repeatsASingleValueHeader)
    }

    @Test func theFirstSixNamesAreTheSingleValueHeadersInOrder() {
        #expect(APNsHeaderIndex.Name.allCases.prefix(6).map(\.fieldName) == PushRule.singleValueHeaders)
    }

    @Test func everyNameIsRecognisedFromItsFieldNameAndNothingElse() {
        for name in APNsHeaderIndex.Name.allCases {
            #expect(APNsHeaderIndex.Name(fieldName: name.fieldName) == name)
            #expect(APNsHeaderIndex.Name(fieldName: name.fieldName.uppercased()) == nil)
        }
        #expect(APNsHeaderIndex.Name(fieldName: "content-type") == nil)
        #expect(APNsHeaderIndex.Name(fieldName: "") == nil)
    }
}

/// The device token is what follows `/3/device/` in the path, as `String(path.dropFirst(10))` reads it: byte-wise
/// when a character boundary follows the prefix, by characters when a combining mark joins its last slash.
@Suite struct DeviceTokenInPathTests {
    @Test(arguments: [
        "/3/device/", "/3/device/abcdef", "/3/device/ab/cd", "/3/device/not-a-device-token-7", "/3/device/é1",
        "/3/device/\u{301}abc", "/3/device/\u{301}", "/3/device/😀", "/3/devices/ab", "/3/device", "/4/device/ab",
    ])
    func theTokenIsTheRestOfThePathByCharacters(path: String) {
        let expected = path.utf8.starts(with: "/3/device/".utf8) ? String(path.dropFirst(10)) : nil
        #expect(PushEvaluation.deviceToken(inPath: path) == expected)
    }
}
