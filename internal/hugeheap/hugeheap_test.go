package hugeheap

import "testing"

func TestReserveOff(t *testing.T) {
	for _, v := range []string{"0", "off"} {
		t.Setenv(EnvVar, v)
		res, err := Reserve(1 << 30)
		if err != nil || res.Bytes != 0 || res.Reason != EnvVar+"="+v {
			t.Errorf("%s=%s: Reserve = %+v, %v; want nothing marked, reason %q", EnvVar, v, res, err, EnvVar+"="+v)
		}
	}
}

func TestReserveTooSmall(t *testing.T) {
	res, err := Reserve(4096)
	if err != nil || res.Bytes != 0 || res.Reason == "" {
		t.Errorf("Reserve(4096) = %+v, %v; want nothing marked and a reason", res, err)
	}
}

func TestReserveForInputBelowMin(t *testing.T) {
	res, err := ReserveForInput(MinInput - 1)
	if err != nil || res.Bytes != 0 || res.Reason == "" {
		t.Errorf("ReserveForInput(MinInput-1) = %+v, %v; want nothing marked and a reason", res, err)
	}
}
