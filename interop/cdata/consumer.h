// A small C consumer and producer of the Arrow C Data Interface, written
// from the interface specification so that rowbridge's exported batches are
// read by code that shares nothing with arrow-go.
#ifndef ROWBRIDGE_INTEROP_CDATA_H
#define ROWBRIDGE_INTEROP_CDATA_H

#include <stdint.h>

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

// rb_summary is what the consumer reports about one array. The hash covers
// every logical slot recursively (null marks, values, list lengths), so two
// arrays with equal summaries hold equal data with near certainty.
typedef struct {
  int64_t length;      // top-level length
  int64_t null_count;  // top-level nulls, counted from the validity bitmap
  uint64_t hash;       // FNV-1a over the logical content
  int64_t int_sum;     // wrapping sum of every valid integer, date and timestamp in the tree
  int64_t str_bytes;   // bytes of every valid string and binary value in the tree
  int64_t nulls;       // null slots seen anywhere in the tree
  int64_t values;      // non-null slots seen anywhere in the tree
  int released;        // 1 when the release callbacks cleared both structs
  char error[128];     // set when the consumer meets something it cannot read
} rb_summary;

// rb_consume summarises (schema, array) and then releases both, as a
// consumer that has finished with them must. It returns 0 on success.
int rb_consume(struct ArrowSchema* schema, struct ArrowArray* array, rb_summary* out);

// rb_produce fills a struct<i: int32, s: utf8> batch of five rows whose
// columns carry nulls; every struct it allocates is freed by a release
// callback that counts itself in rb_released_arrays / rb_released_schemas.
void rb_produce(struct ArrowSchema* schema, struct ArrowArray* array);

// rb_produce_int32 fills one int32 array [7, null, 9, null, 11, 12] sliced
// at offset 1 (so the consumer must honour the offset) with length 5.
void rb_produce_int32(struct ArrowSchema* schema, struct ArrowArray* array);

extern int64_t rb_released_arrays;
extern int64_t rb_released_schemas;

#endif
