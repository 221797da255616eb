package shuffleflight_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// Serving the bundled sample shuffle on loopback and reading partition 1
// back with arrow-go's Flight client.
func Example() {
	schemaText, err := os.ReadFile("../testdata/sample/shuffle/schema.ddl")
	if err != nil {
		log.Fatal(err)
	}
	schema, err := ddl.Parse(string(schemaText))
	if err != nil {
		log.Fatal(err)
	}
	set, err := sparkshuffle.Open("../testdata/sample/shuffle")
	if err != nil {
		log.Fatal(err)
	}
	srv, err := shuffleflight.New(set, map[int]*arrow.Schema{0: schema}, shuffleflight.WithToken("secret"))
	if err != nil {
		log.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()

	c, err := flight.NewClientWithMiddleware(lis.Addr().String(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	call := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer secret")
	info, err := c.GetFlightInfo(call, shuffleflight.Descriptor(0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("endpoints:", len(info.GetEndpoint()))
	stream, err := c.DoGet(call, info.GetEndpoint()[1].GetTicket())
	if err != nil {
		log.Fatal(err)
	}
	rdr, err := flight.NewRecordReader(stream)
	if err != nil {
		log.Fatal(err)
	}
	for rdr.Next() {
		rec := rdr.RecordBatch()
		for i := range int(rec.NumRows()) {
			fmt.Println(rec.Column(0).ValueStr(i), rec.Column(1).ValueStr(i))
		}
	}
	if err := rdr.Err(); err != nil {
		log.Fatal(err)
	}
	rdr.Release()
	stop()
	if err := <-served; err != nil {
		log.Fatal(err)
	}
	// Output:
	// endpoints: 4
	// 2 cappuccino
	// 5 matcha
	// 10 cortado
	// 11 chai latte
}
