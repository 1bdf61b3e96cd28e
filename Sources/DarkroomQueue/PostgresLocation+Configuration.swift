import Foundation
import PostgresNIO  // re-exports NIOSSL

extension PostgresLocation {
    /// How long making one connection may take before it fails.
    static let connectTimeout = 10

    /// What the server shows as the connections' `application_name` (in `pg_stat_activity`).
    static let applicationName = "darkroom"

    /// postgres-nio's configuration of a pool (`PostgresClient`) of at most `connections` connections
    /// to this location.
    func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            var tls = PostgresClient.Configuration.TLS.disable
            if let choice = tlsChoice { tls = choice.required ? .require(choice.configuration) : .prefer(choice.configuration) }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout))
        configuration.options.maximumConnections = connections
        configuration.options.additionalStartupParameters = [("application_name", Self.applicationName)]
        return configuration
    }

    /// postgres-nio's configuration of one connection to this location (the session's first
    /// connection, which checks that the server can be reached and says why not).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            var tls = PostgresConnection.Configuration.TLS.disable
            if let choice = tlsChoice {
                let context = try NIOSSLContext(configuration: choice.configuration)
                tls = choice.required ? .require(context) : .prefer(context)
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout))
        configuration.options.additionalStartupParameters = [("application_name", Self.applicationName)]
        return configuration
    }

    /// The TLS settings `tls` asks for (nil for none), and whether TLS is required: `prefer` and
    /// `require` do not check the certificate, as in libpq; `verify-full` does.
    private var tlsChoice: (configuration: TLSConfiguration, required: Bool)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return nil
        case .prefer:
            configuration.certificateVerification = .none
            return (configuration, false)
        case .require:
            configuration.certificateVerification = .none
            return (configuration, true)
        case .verifyFull:
            return (configuration, true)
        }
    }
}
