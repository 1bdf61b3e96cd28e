import DarkroomCore
import Foundation
import DarkroomLibrary
import DarkroomReport

extension Runner {
    /// Runs one shard of a sharded sweep: only the photos (and collection outputs) `shard` owns.
    /// Results go to the shard's manifest, not the catalog; `snapshot` (the catalog as the sweep
    /// found it, if any) says what is already done.
    public func run(inputs: [URL], shard: Shard, snapshot: CatalogStore?) throws -> RunReport {
        try run(inputs: inputs, shard: shard) {
            try ShardManifest(library: settings.library, pipelineName: pipelineName, shard: shard, snapshot: snapshot)
        }
    }
}
