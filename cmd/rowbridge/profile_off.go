//go:build !benchprofile

package main

// stopProfile does nothing: only a build with -tags benchprofile profiles
// (see profile.go).
func stopProfile() {}
