package rowstream

import (
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/framing"
)

// ReaderOption configures NewReader beyond its required arguments.
type ReaderOption func(*readerOptions)

type readerOptions struct{ workers int }

// WithWorkers decodes batches on n goroutines (n > 1): one goroutine
// splits the stream into batches of rows, copying them out of the framing
// reader, and n decode them; Next returns them in stream order. At most
// about 3n+1 batches exist at once, raw or decoded. n <= 1 (the default)
// decodes in the caller's goroutine. The decoder must be safe for
// concurrent use.
func WithWorkers(n int) ReaderOption {
	return func(o *readerOptions) { o.workers = max(n, 1) }
}

// parallel is the pipeline behind a Reader with workers > 1. The ordered
// queue holds every batch in stream order, each with a done channel; the
// decoders take batches from the work channel in any order and never wait
// on the consumer, so every batch queued completes.
type parallel struct {
	quit  chan struct{}
	wg    sync.WaitGroup
	queue chan *job // stream order, closed by the splitter at the end
	work  chan *job
	once  sync.Once
	bufs  sync.Pool // *RowBuffer
}

type job struct {
	rows  [][]byte
	buf   *RowBuffer
	start int64 // stream index of rows[0]
	rec   arrow.RecordBatch
	err   error
	done  chan struct{}
}

func startParallel(fr *framing.Reader, dec BatchDecoder, batchRows, workers int) *parallel {
	p := &parallel{
		quit:  make(chan struct{}),
		queue: make(chan *job, 2*workers),
		work:  make(chan *job, workers),
	}
	p.bufs.New = func() any { return new(RowBuffer) }
	p.wg.Add(1 + workers)
	go p.split(fr, batchRows)
	for range workers {
		go p.decode(dec)
	}
	return p
}

func (p *parallel) split(fr *framing.Reader, batchRows int) {
	defer p.wg.Done()
	defer close(p.queue)
	var start int64
	for {
		rows, err := fr.Next(batchRows)
		if err != nil {
			if err != io.EOF {
				j := &job{err: err, done: make(chan struct{})}
				close(j.done)
				select {
				case p.queue <- j:
				case <-p.quit:
				}
			}
			return
		}
		j := &job{start: start, buf: p.bufs.Get().(*RowBuffer), done: make(chan struct{})}
		j.rows = j.buf.Copy(rows)
		start += int64(len(rows))
		select {
		case p.queue <- j:
		case <-p.quit:
			return
		}
		select {
		case p.work <- j: // queued already: close finds it there
		case <-p.quit:
			return
		}
	}
}

func (p *parallel) decode(dec BatchDecoder) {
	defer p.wg.Done()
	for {
		select {
		case j := <-p.work:
			rec, err := dec.Decode(j.rows)
			if err != nil {
				j.err = inStream(err, j.start)
			}
			j.rec = rec
			p.bufs.Put(j.buf)
			j.buf, j.rows = nil, nil
			close(j.done)
		case <-p.quit:
			return
		}
	}
}

// Next returns the next batch in stream order, io.EOF at the end.
func (p *parallel) Next() (arrow.RecordBatch, error) {
	j, ok := <-p.queue
	if !ok {
		return nil, io.EOF
	}
	<-j.done
	if j.err != nil {
		return nil, j.err
	}
	return j.rec, nil
}

// Close stops the goroutines and frees the batches decoded ahead.
func (p *parallel) Close() {
	p.once.Do(func() {
		close(p.quit)
		p.wg.Wait()
		for j := range p.queue { // closed by the splitter
			if j.rec != nil {
				j.rec.Release()
			}
		}
	})
}
