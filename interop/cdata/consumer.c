//go:build cgo

#include "consumer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

typedef struct {
  rb_summary* out;
  int failed;
} walker;

static uint64_t mix_byte(uint64_t h, uint8_t b) { return (h ^ b) * FNV_PRIME; }

static uint64_t mix_u64(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++) h = mix_byte(h, (uint8_t)(v >> (8 * i)));
  return h;
}

static uint64_t mix_bytes(uint64_t h, const uint8_t* p, int64_t n) {
  h = mix_u64(h, (uint64_t)n);
  for (int64_t i = 0; i < n; i++) h = mix_byte(h, p[i]);
  return h;
}

static int bit(const void* bitmap, int64_t i) {
  return (((const uint8_t*)bitmap)[i >> 3] >> (i & 7)) & 1;
}

static void fail(walker* w, const char* what, const char* format) {
  if (!w->failed) snprintf(w->out->error, sizeof w->out->error, "%s (format %s)", what, format);
  w->failed = 1;
}

static uint64_t slot(walker* w, const struct ArrowSchema* s, const struct ArrowArray* a, int64_t i, uint64_t h);

// span hashes the n elements of child c that start at its logical index start.
static uint64_t span(walker* w, const struct ArrowSchema* s, const struct ArrowArray* a, int64_t start,
                     int64_t end, uint64_t h) {
  if (end < start || start < 0 || end > a->length) {
    fail(w, "list offsets out of order or past the child's length", s->format);
    return h;
  }
  h = mix_u64(h, (uint64_t)(end - start));
  for (int64_t j = start; j < end; j++) h = slot(w, s, a, j, h);
  return h;
}

// slot hashes logical element i of a, i.e. physical element a->offset + i.
static uint64_t slot(walker* w, const struct ArrowSchema* s, const struct ArrowArray* a, int64_t i, uint64_t h) {
  const char* f = s->format;
  int64_t p = a->offset + i;
  int is_null = f[0] == 'n' || (a->n_buffers > 0 && a->buffers[0] != NULL && !bit(a->buffers[0], p));
  if (is_null) {
    w->out->nulls++;
    return mix_byte(h, 0);
  }
  w->out->values++;
  h = mix_byte(h, 1);
  int64_t v;
  switch (f[0]) {
    case 'b':
      return mix_byte(h, (uint8_t)bit(a->buffers[1], p));
    case 'c':
      v = ((const int8_t*)a->buffers[1])[p];
      goto integer;
    case 's':
      v = ((const int16_t*)a->buffers[1])[p];
      goto integer;
    case 'i':
      v = ((const int32_t*)a->buffers[1])[p];
      goto integer;
    case 'l':
      v = ((const int64_t*)a->buffers[1])[p];
      goto integer;
    case 'f':
      return mix_u64(h, ((const uint32_t*)a->buffers[1])[p]);
    case 'g':
      return mix_u64(h, ((const uint64_t*)a->buffers[1])[p]);
    case 'd': {  // decimal128: 16 little-endian bytes
      const uint8_t* d = (const uint8_t*)a->buffers[1] + 16 * p;
      for (int k = 0; k < 16; k++) h = mix_byte(h, d[k]);
      return h;
    }
    case 't':
      if (strcmp(f, "tdD") == 0) {
        v = ((const int32_t*)a->buffers[1])[p];
        goto integer;
      }
      if (strncmp(f, "ts", 2) == 0) {
        v = ((const int64_t*)a->buffers[1])[p];
        goto integer;
      }
      break;
    case 'u':
    case 'z': {
      const int32_t* off = (const int32_t*)a->buffers[1];
      int64_t n = (int64_t)off[p + 1] - off[p];
      w->out->str_bytes += n;
      return mix_bytes(h, (const uint8_t*)a->buffers[2] + off[p], n);
    }
    case 'U':
    case 'Z': {
      const int64_t* off = (const int64_t*)a->buffers[1];
      int64_t n = off[p + 1] - off[p];
      w->out->str_bytes += n;
      return mix_bytes(h, (const uint8_t*)a->buffers[2] + off[p], n);
    }
    case '+':
      if (f[1] == 'l' || f[1] == 'm') {  // a map is a list of entries structs
        const int32_t* off = (const int32_t*)a->buffers[1];
        return span(w, s->children[0], a->children[0], off[p], off[p + 1], h);
      }
      if (f[1] == 'L') {
        const int64_t* off = (const int64_t*)a->buffers[1];
        return span(w, s->children[0], a->children[0], off[p], off[p + 1], h);
      }
      if (f[1] == 's') {  // the parent offset applies to the children
        for (int64_t k = 0; k < a->n_children; k++)
          if (a->children[k]->length < a->offset + a->length) {
            fail(w, "struct child shorter than parent offset + length", f);
            return h;
          }
        for (int64_t k = 0; k < a->n_children; k++) h = slot(w, s->children[k], a->children[k], p, h);
        return h;
      }
      break;
  }
  fail(w, "unsupported type", f);
  return h;
integer:
  w->out->int_sum = (int64_t)((uint64_t)w->out->int_sum + (uint64_t)v);
  return mix_u64(h, (uint64_t)v);
}

int rb_consume(struct ArrowSchema* schema, struct ArrowArray* array, rb_summary* out) {
  memset(out, 0, sizeof *out);
  walker w = {out, 0};
  out->length = array->length;
  uint64_t h = FNV_OFFSET;
  int64_t nulls_before = 0;
  for (int64_t i = 0; i < array->length && !w.failed; i++) {
    int64_t p = array->offset + i;
    if (schema->format[0] == 'n' || (array->n_buffers > 0 && array->buffers[0] != NULL && !bit(array->buffers[0], p)))
      nulls_before++;
    h = slot(&w, schema, array, i, h);
  }
  out->null_count = nulls_before;
  out->hash = h;
  array->release(array);
  schema->release(schema);
  out->released = array->release == NULL && schema->release == NULL;
  return w.failed ? -1 : 0;
}

// ---- producer ----

int64_t rb_released_arrays = 0;
int64_t rb_released_schemas = 0;

// Each produced array owns one malloc'd block for its buffer pointers and
// one per buffer; private_data holds the block of buffers to free.
typedef struct {
  int64_t n_buffers;
  void* buffers[3];
} owned;

static void release_array(struct ArrowArray* a) {
  for (int64_t k = 0; k < a->n_children; k++) {
    struct ArrowArray* c = a->children[k];
    if (c->release != NULL) c->release(c);
    free(c);
  }
  free(a->children);
  owned* o = (owned*)a->private_data;
  for (int64_t k = 0; k < o->n_buffers; k++) free(o->buffers[k]);
  free(o);
  free(a->buffers);
  a->release = NULL;
  rb_released_arrays++;
}

static void release_schema(struct ArrowSchema* s) {
  for (int64_t k = 0; k < s->n_children; k++) {
    struct ArrowSchema* c = s->children[k];
    if (c->release != NULL) c->release(c);
    free(c);
  }
  free(s->children);
  s->release = NULL;
  rb_released_schemas++;
}

static void init_schema(struct ArrowSchema* s, const char* format, const char* name, int64_t n_children) {
  memset(s, 0, sizeof *s);
  s->format = format;
  s->name = name;
  s->flags = ARROW_FLAG_NULLABLE;
  s->n_children = n_children;
  if (n_children > 0) {
    s->children = calloc((size_t)n_children, sizeof(struct ArrowSchema*));
    for (int64_t k = 0; k < n_children; k++) s->children[k] = calloc(1, sizeof(struct ArrowSchema));
  }
  s->release = release_schema;
}

static void init_array(struct ArrowArray* a, int64_t length, int64_t null_count, int64_t offset,
                       int64_t n_buffers, int64_t n_children) {
  memset(a, 0, sizeof *a);
  a->length = length;
  a->null_count = null_count;
  a->offset = offset;
  a->n_buffers = n_buffers;
  a->buffers = calloc((size_t)n_buffers, sizeof(void*));
  owned* o = calloc(1, sizeof(owned));
  o->n_buffers = n_buffers;
  a->private_data = o;
  a->n_children = n_children;
  if (n_children > 0) {
    a->children = calloc((size_t)n_children, sizeof(struct ArrowArray*));
    for (int64_t k = 0; k < n_children; k++) a->children[k] = calloc(1, sizeof(struct ArrowArray));
  }
  a->release = release_array;
}

static void* set_buffer(struct ArrowArray* a, int k, const void* src, size_t n) {
  void* b = malloc(n == 0 ? 1 : n);
  memcpy(b, src, n);
  ((owned*)a->private_data)->buffers[k] = b;
  a->buffers[k] = b;
  return b;
}

void rb_produce(struct ArrowSchema* schema, struct ArrowArray* array) {
  init_schema(schema, "+s", "", 2);
  schema->flags = 0;
  init_schema(schema->children[0], "i", "i", 0);
  init_schema(schema->children[1], "u", "s", 0);

  init_array(array, 5, 0, 0, 1, 2);  // struct with no validity bitmap

  // i: [1, null, 3, -4, 2147483647]
  const int32_t ivals[5] = {1, 0, 3, -4, 2147483647};
  const uint8_t ivalid[1] = {0x1D};  // 0b11101
  init_array(array->children[0], 5, 1, 0, 2, 0);
  set_buffer(array->children[0], 0, ivalid, 1);
  set_buffer(array->children[0], 1, ivals, sizeof ivals);

  // s: ["a", null, "", "h\xc3\xa9llo", null]
  const int32_t soffs[6] = {0, 1, 1, 1, 7, 7};
  const char sdata[] = "ah\xc3\xa9llo";
  const uint8_t svalid[1] = {0x0D};  // 0b01101
  init_array(array->children[1], 5, 2, 0, 3, 0);
  set_buffer(array->children[1], 0, svalid, 1);
  set_buffer(array->children[1], 1, soffs, sizeof soffs);
  set_buffer(array->children[1], 2, sdata, 7);
}

void rb_produce_int32(struct ArrowSchema* schema, struct ArrowArray* array) {
  init_schema(schema, "i", "n", 0);
  const int32_t vals[6] = {7, 0, 9, 0, 11, 12};
  const uint8_t valid[1] = {0x35};  // 0b110101: slots 1 and 3 are null
  init_array(array, 5, 2, 1, 2, 0);
  set_buffer(array, 0, valid, 1);
  set_buffer(array, 1, vals, sizeof vals);
}
