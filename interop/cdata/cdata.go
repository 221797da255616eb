//go:build cgo

// Package cdata hands Arrow data across the C Data Interface to and from a
// small C program compiled by cgo (consumer.c), so tests can show that
// rowbridge's batches are readable by C code that shares nothing with
// arrow-go, and that arrow-go imports C-produced arrays without leaks.
package cdata

/*
#include <stdlib.h>
#include "consumer.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	arrowcdata "github.com/apache/arrow-go/v18/arrow/cdata"
)

// cStructs allocates an ArrowSchema/ArrowArray pair in C memory, as the
// interface requires for structs a C consumer keeps.
func cStructs() (*C.struct_ArrowSchema, *C.struct_ArrowArray) {
	s := (*C.struct_ArrowSchema)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_ArrowSchema{}))))
	a := (*C.struct_ArrowArray)(C.calloc(1, C.size_t(unsafe.Sizeof(C.struct_ArrowArray{}))))
	return s, a
}

func consume(s *C.struct_ArrowSchema, a *C.struct_ArrowArray) (Summary, error) {
	defer C.free(unsafe.Pointer(s))
	defer C.free(unsafe.Pointer(a))
	var out C.rb_summary
	rc := C.rb_consume(s, a, &out)
	if rc != 0 {
		return Summary{}, fmt.Errorf("consumer.c: %s", C.GoString(&out.error[0]))
	}
	if out.released != 1 {
		return Summary{}, fmt.Errorf("consumer.c: release callbacks did not clear the structs")
	}
	return Summary{
		Length: int64(out.length), NullCount: int64(out.null_count), Hash: uint64(out.hash),
		IntSum: int64(out.int_sum), StrBytes: int64(out.str_bytes),
		Nulls: int64(out.nulls), Values: int64(out.values),
	}, nil
}

// ConsumeArray exports arr with cdata.ExportArrowArray and lets the C
// consumer summarise and release it.
func ConsumeArray(arr arrow.Array) (Summary, error) {
	s, a := cStructs()
	arrowcdata.ExportArrowArray(arr, (*arrowcdata.CArrowArray)(unsafe.Pointer(a)), (*arrowcdata.CArrowSchema)(unsafe.Pointer(s)))
	return consume(s, a)
}

// ConsumeRecordBatch exports rb with cdata.ExportArrowRecordBatch (a
// struct array, one child per column) and lets the C consumer summarise it.
func ConsumeRecordBatch(rb arrow.RecordBatch) (Summary, error) {
	s, a := cStructs()
	arrowcdata.ExportArrowRecordBatch(rb, (*arrowcdata.CArrowArray)(unsafe.Pointer(a)), (*arrowcdata.CArrowSchema)(unsafe.Pointer(s)))
	return consume(s, a)
}

// ProduceRecordBatch imports the C producer's struct<i: int32, s: utf8>
// batch with cdata.ImportCRecordBatch. The C release callbacks run when the
// returned batch is released.
func ProduceRecordBatch() (arrow.RecordBatch, error) {
	s, a := cStructs()
	defer C.free(unsafe.Pointer(s))
	defer C.free(unsafe.Pointer(a))
	C.rb_produce(s, a)
	// Importing moves the structs' contents, so freeing the shells is safe.
	return arrowcdata.ImportCRecordBatch((*arrowcdata.CArrowArray)(unsafe.Pointer(a)), (*arrowcdata.CArrowSchema)(unsafe.Pointer(s)))
}

// ProduceInt32 imports the C producer's offset int32 array with
// cdata.ImportCArray.
func ProduceInt32() (arrow.Field, arrow.Array, error) {
	s, a := cStructs()
	defer C.free(unsafe.Pointer(s))
	defer C.free(unsafe.Pointer(a))
	C.rb_produce_int32(s, a)
	return arrowcdata.ImportCArray((*arrowcdata.CArrowArray)(unsafe.Pointer(a)), (*arrowcdata.CArrowSchema)(unsafe.Pointer(s)))
}

// Released reports how many array and schema release callbacks of the C
// producer have run so far.
func Released() (arrays, schemas int64) {
	return int64(C.rb_released_arrays), int64(C.rb_released_schemas)
}
