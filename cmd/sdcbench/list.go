package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"text/tabwriter"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments"
	"github.com/sdcbench/sdcbench/internal/registry"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all" // register every method
	"github.com/sdcbench/sdcbench/metrics"
	"github.com/sdcbench/sdcbench/studies"
)

func init() {
	commands["list"] = command{usage: "list datasets|methods|metrics|experiments", run: runList}
}

func runList(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlags("list", "list datasets|methods|metrics|experiments", stderr)
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		return usageErr("list", "want one of datasets, methods, metrics, experiments")
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	defer tw.Flush()
	switch flags.Arg(0) {
	case "datasets":
		fmt.Fprintln(tw, "NAME\tROWS×COLS\tSOURCE\tDESCRIPTION")
		for _, in := range datasets.List() {
			d, err := datasets.Load(in.Name)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t%d×%d\t%s\t%s\n", in.Name, d.N, d.P, in.Source, in.Description)
		}
	case "methods":
		fams, by := methods.Families()
		for i, f := range fams {
			if i > 0 {
				fmt.Fprintln(tw)
			}
			fmt.Fprintf(tw, "== %s: use when %s\n", f.Title, f.UseWhen)
			for _, in := range by[f.Key] {
				fmt.Fprintf(tw, "%s\t%s\n", in.Name, plain(in.Description))
				for _, ps := range in.Params {
					fmt.Fprintf(tw, "  %s\t%s, default %s, range %s: %s\n", ps.Name, ps.Kind, ps.Default, ps.Range(), ps.Doc)
				}
				if in.Missing != "" {
					fmt.Fprintf(tw, "  (missing)\t%s\n", plain(in.Missing))
				} else {
					fmt.Fprintf(tw, "  (missing)\trefused (docs/own-data.md §6)\n")
				}
			}
		}
		for _, pp := range methods.PostProcessors() {
			fmt.Fprintf(tw, "%s(METHOD)\tpost-processor: %s; chains apply innermost first\n", pp.Name(), pp.Description())
		}
	case "metrics":
		for i, k := range metrics.Kinds {
			if i > 0 {
				fmt.Fprintln(tw)
			}
			fmt.Fprintf(tw, "== %s: use when %s\n", k.Title, k.UseWhen)
			fmt.Fprintln(tw, "ID\tUNIT\tBETTER\tCOLUMNS\tDESCRIPTION")
			for _, in := range metrics.List() {
				if metrics.KindOf(in) == k.Key {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", in.ID, in.Unit, in.Better, in.Columns, plain(in.Description))
				}
			}
		}
	case "experiments":
		// NAME stays the first column: the Makefile's reproduce target reads it.
		fmt.Fprintln(tw, "NAME\tSTUDY\tRUNS\tDESCRIPTION")
		bundled := studies.Bundled()
		for _, name := range experiments.BundledNames(bundled) {
			text, err := fs.ReadFile(bundled, name+".toml")
			if err != nil {
				return err
			}
			s, err := experiments.Parse(text, name+" (bundled)")
			if err != nil {
				return err
			}
			st, _ := studies.For(name)
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", name, st.Name, s.NumRuns(), s.Description)
		}
	default:
		return usageErr("list", "unknown list %q%s: want one of datasets, methods, metrics, experiments", flags.Arg(0),
			registry.DidYouMean(flags.Arg(0), []string{"datasets", "methods", "metrics", "experiments"}))
	}
	return nil
}
