//go:build armbe || arm64be || m68k || mips || mips64 || mips64p32 || ppc || ppc64 || s390 || s390x || shbe || sparc || sparc64

package rowbridge

// rowbridge assumes a little-endian machine: the codecs load row words
// natively and copy element regions of rows straight into Arrow buffers.
// Every codec imports this package, so on a big-endian target the build
// stops here, naming the reason.
var _ = rowbridge_supports_only_little_endian_machines
