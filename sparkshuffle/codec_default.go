package sparkshuffle

import "github.com/rowbridge/rowbridge/framing"

// defaultCodec is the codec a Reader assumes without WithCodec.
const defaultCodec = framing.None
