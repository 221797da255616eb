// Package sparkhash computes Spark SQL's hash() — Murmur3Hash with seed 42,
// Murmur3_x86_32 as Spark implements it, legacy byte tail included — over
// Arrow arrays, bit for bit, and partitions rows as Spark's HashPartitioning
// and RoundRobinPartitioning do.
//
// Hashing is column at a time: HashInto sets every row's running hash to the
// seed and folds the columns into it left to right, as Spark folds the
// children of hash(a, b, ...). Fold adds one more column. A null value (at
// any level) leaves the running hash unchanged. Flat columns are hashed in
// tight loops over the Arrow buffers; nested ones recurse per row. Nothing
// allocates per row.
//
// Type rules (Spark's Murmur3Hash / HashExpression):
//
//	null type                      always null: hash unchanged
//	bool                           hashInt(1 or 0)
//	int8, int16, int32, date32     hashInt(value)
//	int64, timestamp[us] (any tz)  hashLong(value)
//	float32                        hashInt(floatToIntBits), -0.0 as 0
//	float64                        hashLong(doubleToLongBits), -0.0 as 0
//	decimal, precision <= 18       hashLong(unscaled value)
//	decimal, precision > 18        hashUnsafeBytes(BigInteger.toByteArray(unscaled))
//	string, binary (and large_)    hashUnsafeBytes(bytes)
//	list, large_list               elements folded in order
//	struct                         fields folded in order
//	map                            refused, as Spark refuses maps
//
// Unsigned integers, timestamps other than microseconds and the other Arrow
// types Spark cannot hold are refused with an error naming the column path;
// such errors match both arrow.ErrNotImplemented and
// rowbridge.ErrUnsupportedType under errors.Is.
package sparkhash
