package sparkshuffle

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// The parallel Reader is a pipeline of three kinds of goroutine:
//
//   - a dispatcher starts a splitter for each segment in read order,
//     keeping at most `workers` segments open at once;
//   - a splitter opens its segment, verifies its checksum, decompresses it
//     and splits it into batches of rows (in buffers the framing reader
//     hands over, pooled, not copied), each a job queued on the segment's
//     own ordered queue, which it decodes itself while `workers` segments
//     are being split (every core busy, the rows hot in its caches) and
//     otherwise hands to a decoder that waits for work (a splitter waiting
//     for room in the window below does not count as splitting);
//   - `workers` decoders decode the jobs handed to them, in any order.
//
// The consumer (Next) takes segments in order and, within a segment, jobs
// in order, waiting for each to be decoded. Order is thus preserved
// without sorting, and the decoders never wait on the consumer, so every
// job handed to them completes.
//
// Memory: the segment being consumed (the head) may have up to
// 2*workers jobs queued; the segments opened ahead of it share a window of
// 2*workers jobs, taken before a job is made and given back when the
// consumer delivers it. Segments ahead thus cannot starve the head (it
// never waits for the window), and a long head segment keeps every
// decoder busy. At most about 5 batches per worker exist at once, raw or
// decoded, plus one open segment per worker (with, when its checksum is
// verified, its compressed bytes of up to wholeSegmentSize).
type pipeline struct {
	cfg  *config
	dec  *unsaferow.Decoder
	quit chan struct{}
	wg   sync.WaitGroup

	order  chan *segTask // segments in read order, for the consumer
	open   chan struct{} // semaphore: segments open
	window chan struct{} // semaphore: jobs of segments ahead of the head
	work   chan *job     // jobs for the decoders
	cur    *segTask      // the head, being consumed
	once   sync.Once
	rowBuf chan *rowBuffers // free batch buffers, kept for the pipeline's life (a sync.Pool loses them at each GC)

	splitting atomic.Int32 // segments being split
}

// rowBuffers are the buffers of one batch of rows, as framing.Reader.Detach
// hands them over.
type rowBuffers struct {
	data []byte
	rows [][]byte
}

// segTask is one segment's ordered queue of jobs, closed by its splitter.
type segTask struct {
	seg  Segment
	jobs chan *job
	head chan struct{} // closed when the consumer reaches the segment
}

// job is one batch of rows on its way to a record batch.
type job struct {
	task   *segTask
	buf    *rowBuffers
	batch  rowBatch
	codec  framing.Codec // the segment's
	window bool          // holds a window slot
	rec    arrow.RecordBatch
	err    error
	done   chan struct{} // closed once rec or err is set
}

func startPipeline(segs segmentIter, cfg *config, dec *unsaferow.Decoder) *pipeline {
	w := cfg.workers
	p := &pipeline{
		cfg:    cfg,
		dec:    dec,
		quit:   make(chan struct{}),
		order:  make(chan *segTask, w),
		open:   make(chan struct{}, w),
		window: make(chan struct{}, 2*w),
		work:   make(chan *job), // unbuffered: a send succeeds only to an idle decoder
	}
	p.rowBuf = make(chan *rowBuffers, 6*w) // more than the batches that exist at once
	if cfg.shared != nil {
		p.rowBuf = cfg.shared.rows
	}
	p.wg.Add(1 + w)
	go p.dispatch(segs)
	for range w {
		go p.decode()
	}
	return p
}

func (p *pipeline) dispatch(segs segmentIter) {
	defer p.wg.Done()
	defer close(p.order)
	for {
		seg, ok := segs.next()
		if !ok {
			return
		}
		select {
		case p.open <- struct{}{}:
		case <-p.quit:
			return
		}
		t := &segTask{seg: seg, jobs: make(chan *job, 2*p.cfg.workers), head: make(chan struct{})}
		p.wg.Add(1)
		go p.split(t)
		p.order <- t // never blocks: order holds at most `open` tasks
	}
}

// split reads one segment into jobs.
func (p *pipeline) split(t *segTask) {
	defer p.wg.Done()
	defer close(t.jobs)
	p.splitting.Add(1)
	defer p.splitting.Add(-1)
	sr, err := openSegment(t.seg, p.cfg)
	if err != nil {
		p.fail(t, err)
		return
	}
	if sr == nil {
		return
	}
	defer sr.close()
	for {
		b, err := sr.next(p.cfg.batchRows)
		if err == io.EOF {
			return
		}
		if err != nil {
			p.fail(t, err)
			return
		}
		j := &job{task: t, codec: sr.codec, done: make(chan struct{})}
		if !p.admit(t, j) {
			return
		}
		// The job takes the framing reader's buffers and gives it pooled ones.
		select {
		case j.buf = <-p.rowBuf:
		default:
			j.buf = new(rowBuffers)
		}
		j.batch = b
		j.buf.data, j.batch.rows = sr.fr.Detach(j.buf.data, j.buf.rows)
		j.buf.rows = j.batch.rows
		select {
		case t.jobs <- j:
		case <-p.quit:
			return
		}
		// The job is queued already (close finds it there). While as many
		// segments are being split as there are workers, every worker is
		// busy splitting, and the job is decoded here, on the core whose
		// caches hold its rows, with no hand-off; with fewer (the last
		// segments, or one long one), a waiting decoder takes it.
		if p.splitting.Load() < int32(p.cfg.workers) {
			select {
			case p.work <- j:
				continue
			default:
			}
		}
		p.decodeJob(j)
	}
}

// admit lets a job of t be made: at once for the head segment, otherwise
// once the window of jobs ahead has room. A splitter that must wait for
// room does not count as splitting meanwhile, so that the head's splitter
// hands its jobs to the decoder left idle instead of decoding them itself.
// It reports false if the pipeline is closing.
func (p *pipeline) admit(t *segTask, j *job) bool {
	select {
	case <-t.head:
		return true
	case p.window <- struct{}{}:
		j.window = true
		return true
	default:
	}
	p.splitting.Add(-1)
	defer p.splitting.Add(1)
	select {
	case <-t.head:
	case p.window <- struct{}{}:
		j.window = true
	case <-p.quit:
		return false
	}
	return true
}

// fail queues a job that ends the segment with err.
func (p *pipeline) fail(t *segTask, err error) {
	j := &job{task: t, err: err, done: make(chan struct{})}
	close(j.done)
	select {
	case t.jobs <- j:
	case <-p.quit:
	}
}

func (p *pipeline) decode() {
	defer p.wg.Done()
	for {
		select {
		case j := <-p.work:
			p.decodeJob(j)
		case <-p.quit:
			return
		}
	}
}

// decodeJob decodes a job's rows and gives their buffers back.
func (p *pipeline) decodeJob(j *job) {
	rec, err := p.dec.Decode(j.batch.rows)
	if err != nil {
		j.err = decodeError(j.task.seg, j.codec, j.batch, err)
	}
	j.rec = rec
	select {
	case p.rowBuf <- j.buf:
	default:
	}
	j.buf, j.batch.rows = nil, nil
	close(j.done)
}

// Next returns the next batch in read order, io.EOF at the end.
func (p *pipeline) Next() (arrow.RecordBatch, error) {
	for {
		if p.cur == nil {
			t, ok := <-p.order
			if !ok {
				return nil, io.EOF
			}
			close(t.head)
			p.cur = t
		}
		j, ok := <-p.cur.jobs
		if !ok {
			p.cur = nil
			<-p.open
			continue
		}
		<-j.done
		if j.window {
			<-p.window
		}
		if j.err != nil {
			return nil, j.err
		}
		return j.rec, nil
	}
}

// Close stops every goroutine, then frees the batches decoded ahead.
func (p *pipeline) Close() {
	p.once.Do(func() {
		close(p.quit)
		p.wg.Wait()
		// Every splitter has closed its queue; the dispatcher has closed order.
		if p.cur != nil {
			drain(p.cur)
			p.cur = nil
		}
		for t := range p.order {
			drain(t)
		}
	})
}

func drain(t *segTask) {
	for j := range t.jobs {
		if j.rec != nil {
			j.rec.Release()
			j.rec = nil
		}
	}
}
