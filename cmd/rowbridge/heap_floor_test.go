package main

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHeapFloorRaisesTheCollectorsGoal(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	release := holdHeapFloor()
	runtime.GC()
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(goal)
	release()
	// Live: the floor, so the next collection waits for about twice it.
	require.GreaterOrEqual(t, goal[0].Value.Uint64(), uint64(2*heapFloorSize*9/10))
}

func TestHeapFloorLeavesAUsersGOGC(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}[env])
			allocs := testing.AllocsPerRun(3, func() { holdHeapFloor()() })
			require.Zero(t, allocs, "the floor is allocated although %s is set", env)
		})
	}
}
