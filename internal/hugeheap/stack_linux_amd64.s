//go:build !purego

// Code for stack_linux.go (reserveOnStack): functions whose only effect is a large stack frame.

#include "textflag.h"
#include "funcdata.h"

// growTo22 needs a frame of 2^21 bytes, so a goroutine's stack grows to 2^22 bytes when it is
// called; the frame is never touched.
TEXT ·growTo22(SB), 0, $2097152-0
	NO_LOCAL_POINTERS
	RET

// growTo23 needs a frame of 2^22 bytes, so a goroutine's stack grows to 2^23 bytes when it is
// called; the frame is never touched.
TEXT ·growTo23(SB), 0, $4194304-0
	NO_LOCAL_POINTERS
	RET

// growTo24 needs a frame of 2^23 bytes, so a goroutine's stack grows to 2^24 bytes when it is
// called; the frame is never touched.
TEXT ·growTo24(SB), 0, $8388608-0
	NO_LOCAL_POINTERS
	RET

// growTo25 needs a frame of 2^24 bytes, so a goroutine's stack grows to 2^25 bytes when it is
// called; the frame is never touched.
TEXT ·growTo25(SB), 0, $16777216-0
	NO_LOCAL_POINTERS
	RET

// growTo26 needs a frame of 2^25 bytes, so a goroutine's stack grows to 2^26 bytes when it is
// called; the frame is never touched.
TEXT ·growTo26(SB), 0, $33554432-0
	NO_LOCAL_POINTERS
	RET

// growTo27 needs a frame of 2^26 bytes, so a goroutine's stack grows to 2^27 bytes when it is
// called; the frame is never touched.
TEXT ·growTo27(SB), 0, $67108864-0
	NO_LOCAL_POINTERS
	RET

// growTo28 needs a frame of 2^27 bytes, so a goroutine's stack grows to 2^28 bytes when it is
// called; the frame is never touched.
TEXT ·growTo28(SB), 0, $134217728-0
	NO_LOCAL_POINTERS
	RET
