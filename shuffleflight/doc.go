// Package shuffleflight serves the reduce partitions of Spark shuffle
// files (package sparkshuffle) over Arrow Flight, so that engines on other
// machines and in other languages can fetch them with any Flight client.
//
// A Server is a flight.FlightServer: ListFlights gives one FlightInfo per
// shuffle served; GetFlightInfo and GetSchema take the descriptor PATH
// ["shuffle", "<id>"] and answer with the Arrow schema and one endpoint per
// reduce partition, in partition order; DoGet streams a partition's rows,
// exactly the rows, in the order, that a sparkshuffle Reader of that one
// partition gives (rowbridge shuffle decode --partition P), in record
// batches kept under the gRPC message limit, each segment checked against
// its checksum file first.
//
// Serve runs the Server on a listener with its interceptors (bearer-token
// check, one log line per call) and stops gracefully, within a bounded
// wait, when its context ends. A program that has its own gRPC server
// registers the Server there with flight.RegisterFlightServiceServer and
// adds UnaryInterceptor and StreamInterceptor to it, or passes Middleware
// to flight.NewServerWithMiddleware.
//
// See docs/flight.md for the descriptors, tickets, authentication and
// limits.
package shuffleflight
