package perturbative

import "testing"

// TestEmbeddedTablesRead reads every embedded table of the study, which are parsed on first
// use rather than at start-up (a malformed file panics here instead of when the package is
// initialised).
func TestEmbeddedTablesRead(t *testing.T) {
	n := map[string]int{
		"Table28": len(Table28()), "Table34": len(Table34()), "Targets": len(Targets()),
		"Categorical": len(Categorical()), "EusilcsItems": len(EusilcsItems()),
		"EusilcsRefs": len(EusilcsRefs()), "checkValues": len(checkValues()), "sdcCheck": len(sdcCheck()),
	}
	for name, rows := range n {
		if rows == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	if g := studyGini(); g[0][0] == 0 {
		t.Errorf("studyGini = %v", g)
	}
	if o := studyOrigCol1(); o[6] == 0 {
		t.Errorf("studyOrigCol1 = %v", o)
	}
}
