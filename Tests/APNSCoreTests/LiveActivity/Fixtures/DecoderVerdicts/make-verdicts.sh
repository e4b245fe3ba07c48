#!/bin/sh
# Regenerates verdicts.tsv: content-state variants of three fixture types, each decoded by the real Swift
# JSONDecoder (default strategies), one line per case: TYPE <tab> OK|FAIL <tab> JSON.
# ContentStateCheckerDifferentialTests checks that ContentStateChecker agrees with every line.
# Usage: sh make-verdicts.sh   (needs swiftc and python3; writes into this folder)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(dirname "$here")
work=$(mktemp -d)
for f in DeliveryAttributes WorkoutAttributes MatchAttributes; do
  sed -e '/^import ActivityKit/d' -e '/^import SwiftUI/d' -e '/^import CoreGraphics/d' "$fixtures/$f.swift" > "$work/$f.swift"
done
cat > "$work/main.swift" <<'EOF'
import Foundation
protocol ActivityAttributes: Codable { associatedtype ContentState: Codable & Hashable }
func verdict<T: Decodable>(_ type: T.Type, _ json: String) -> String {
    (try? JSONDecoder().decode(T.self, from: Data(json.utf8))) == nil ? "FAIL" : "OK"
}
let input = CommandLine.arguments[1]
var out = ""
for line in try! String(contentsOfFile: input, encoding: .utf8).split(separator: "\n") {
    let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
    let result: String
    switch parts[0] {
    case "DeliveryAttributes": result = verdict(DeliveryAttributes.ContentState.self, parts[1])
    case "WorkoutAttributes": result = verdict(WorkoutAttributes.ContentState.self, parts[1])
    default: result = verdict(MatchAttributes.ContentState.self, parts[1])
    }
    out += "\(parts[0])\t\(result)\t\(parts[1])\n"
}
print(out, terminator: "")
EOF
python3 - "$work/cases.txt" <<'EOF'
import copy, json, sys
bases = {
 "DeliveryAttributes": {"phase":"on_the_way","progress":0.5,"etaDate":800000000,"courier":{"name":"A","rating":4.5,"vehicle":"bike"},"note":"x","trackingURL":"https://e.com","stopsLeft":3,"observed":1},
 "WorkoutAttributes": {"hr":120,"elevation":-5,"steps":1000,"calories":500,"lap_count":2,"splitMillis":1000,"totalMillis":100000,"seed":1,"offset":-1,"pace":5.5,"distance":10.2,"barWidth":3,"cadence":80,"zones":{"z1":1.5},"laps":[{"index":1,"duration":60.5}],"session_id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},
 "MatchAttributes": {"homeScore":1,"awayScore":0,"period":{"overtime":{"minutes":5}},"severity":10,"minute":3,"possession":0.5,"headline":"x","isLive":True,"updatedAt":1,"scorers":["a"],"kickoff":2,"link":"https://e.com"},
}
values = [None, "s", "", 0, 1, -1, 2.5, 2.0, 300, 70000, 5000000000, 1e20, True, [], ["a"], [1], {}, {"first":{}},
          {"a":1}, "on_the_way", "onTheWay", "preparing", 11, 12, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
          "https://x.y/z", {"penalties":{"_0":1,"_1":2}}, {"penalties":{"_0":1}}, {"overtime":{}},
          {"name":"B","rating":1}, {"name":"B"}, [{"index":1,"duration":2}], [{"index":1.5,"duration":2}],
          {"z":"x"}, {"z":1}]
lines = []
for t, base in bases.items():
    lines.append((t, base))
    for k in base:
        d = copy.deepcopy(base); del d[k]; lines.append((t, d))
        for v in values:
            d = copy.deepcopy(base); d[k] = v; lines.append((t, d))
        if isinstance(base[k], dict):
            for k2 in base[k]:
                for v in [None, "s", 1, 2.5, {}]:
                    d = copy.deepcopy(base); d[k][k2] = v; lines.append((t, d))
    d = copy.deepcopy(base); d["extra"] = 1; lines.append((t, d))
with open(sys.argv[1], "w") as f:
    for t, d in lines:
        f.write(t + "\t" + json.dumps(d, separators=(",", ":")) + "\n")
EOF
swiftc -o "$work/verdicts" "$work"/*.swift
"$work/verdicts" "$work/cases.txt" > "$here/verdicts.tsv"
rm -rf "$work"
echo "wrote $(wc -l < "$here/verdicts.tsv") cases to $here/verdicts.tsv"
