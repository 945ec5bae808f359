package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	// Backs the start of the heap with huge pages while the packages initialise
	// (docs/datapath.md "Start-up").
	_ "github.com/sdcbench/sdcbench/internal/hugeheap/early"
)

// command is one subcommand: run parses its own flags from args.
type command struct {
	usage string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is filled by the init functions of this package's files, one file per subcommand.
var commands = map[string]command{}

// errUsage marks errors that should exit with status 2.
var errUsage = errors.New("usage")

func main() {
	// SIGTERM (what Slurm and most schedulers send at a time limit) stops as gracefully as ^C.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	go exitAfterGrace(ctx, finished, interruptGrace)
	stopProfile := startCPUProfile(os.Getenv("SDCBENCH_CPUPROFILE"))
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	close(finished)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "sdcbench:", strings.TrimPrefix(err.Error(), "usage: "))
		}
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// interruptGrace is how long a command may take to stop after SIGINT or SIGTERM before the
// process exits anyway: the loops that check the context stop within about a second, but a
// read blocked on a pipe or a computation without a check would swallow the signal.
const interruptGrace = 2 * time.Second

// exitAfterGrace exits with status 1 when ctx is cancelled (a signal) and the command has not
// finished within grace.
func exitAfterGrace(ctx context.Context, finished <-chan struct{}, grace time.Duration) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	select {
	case <-finished:
	case <-time.After(grace):
		fmt.Fprintf(os.Stderr, "sdcbench: interrupted: still busy %v after the signal; exiting without finishing (a run resumes where it stopped)\n", grace)
		os.Exit(1)
	}
}

// run dispatches args to a subcommand.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stderr)
		if len(args) == 0 {
			return fmt.Errorf("%w: no command", errUsage)
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown command %q (have %s)", errUsage, args[0], strings.Join(commandNames(), ", "))
	}
	if err := c.run(ctx, args[1:], stdout, stderr); !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil // -h / --help printed the usage: success
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: sdcbench COMMAND [flags] [args]")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %s\n", commands[n].usage)
	}
}

// newFlags returns a FlagSet for a subcommand that reports errors instead of exiting.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { // errors are reported in one line by main; -h prints the flags
		fmt.Fprintf(fs.Output(), "usage: sdcbench %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and wraps flag errors as usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // parse errors are reported once, by main
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return err
		}
		usage := fs.Name()
		if c, ok := commands[fs.Name()]; ok {
			usage = c.usage
		}
		return fmt.Errorf("%w: %s: %v (usage: sdcbench %s)", errUsage, fs.Name(), err, usage)
	}
	return nil
}

// usageErr returns a usage error for a subcommand.
func usageErr(cmd, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", errUsage, cmd, fmt.Sprintf(format, a...))
}

// csvList splits a comma-separated flag value, dropping blanks.
func csvList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
