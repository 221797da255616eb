package ddl_test

import (
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
)

// A Spark DDL column list parsed into an Arrow schema, and printed back in
// Spark's DDL, Spark's catalog string and Velox's type notation.
func Example() {
	schema, err := ddl.Parse("id BIGINT NOT NULL, name STRING COMMENT 'who', tags ARRAY<STRING>, " +
		"scores MAP<STRING, DOUBLE>, price DECIMAL(12,2), at TIMESTAMP")
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range schema.Fields() {
		fmt.Printf("%s: %s nullable=%v\n", f.Name, f.Type, f.Nullable)
	}
	for _, format := range []func(*arrow.Schema) (string, error){ddl.FormatDDL, ddl.FormatCatalog, ddl.FormatVelox} {
		s, err := format(schema)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(s)
	}
	// Output:
	// id: int64 nullable=false
	// name: utf8 nullable=true
	// tags: list<element: utf8, nullable> nullable=true
	// scores: map<utf8, float64, items_nullable> nullable=true
	// price: decimal(12, 2) nullable=true
	// at: timestamp[us, tz=UTC] nullable=true
	// id BIGINT NOT NULL, name STRING COMMENT 'who', tags ARRAY<STRING>, scores MAP<STRING, DOUBLE>, price DECIMAL(12,2), at TIMESTAMP
	// struct<id:bigint,name:string,tags:array<string>,scores:map<string,double>,price:decimal(12,2),at:timestamp>
	// ROW(id BIGINT, name VARCHAR, tags ARRAY(VARCHAR), scores MAP(VARCHAR, DOUBLE), price DECIMAL(12, 2), at TIMESTAMP)
}
