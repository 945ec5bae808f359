package browser

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"time"
)

// MinInk is the share of a screenshot's pixels that must differ from its background for
// NotBlank: 0.02 %, about 400 pixels of a 1280 × 1600 window, less than one short heading
// (the word "Hello" in a default h1 inks about 0.06 %).
const MinInk = 0.0002

// Screenshot opens the HTML file path in the browser and returns a screenshot of the window
// (Browser.Width × Browser.Height pixels, the top of the page). The page is loaded as it is,
// without the probe of Load; Load's Page.Screenshot saves the second run when both are wanted.
func (b *Browser) Screenshot(ctx context.Context, path string) (image.Image, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	dir, err := os.MkdirTemp("", "sdcbench-screenshot-")
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	defer os.RemoveAll(dir)
	shot := filepath.Join(dir, "shot.png")
	settle := b.Settle
	if settle <= 0 {
		settle = 2 * time.Second
	}
	if _, _, err := b.run(ctx, "--screenshot="+shot, fmt.Sprintf("--virtual-time-budget=%d", settle.Milliseconds()), fileURL(abs)); err != nil {
		return nil, err
	}
	img, err := readPNG(shot)
	if err != nil {
		return nil, fmt.Errorf("browser: the screenshot of %s: %w", path, err)
	}
	return img, nil
}

// readPNG decodes the PNG file the browser wrote.
func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// Ink returns the share of img's pixels whose colour differs from the background, the most
// frequent colour: 0 for a blank image, about 0.01 to 0.2 for a page of text and tables.
func Ink(img image.Image) float64 {
	r := img.Bounds()
	if r.Empty() {
		return 0
	}
	freq := map[color.RGBA64]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			freq[color.RGBA64Model.Convert(img.At(x, y)).(color.RGBA64)]++
		}
	}
	most := 0
	for _, n := range freq {
		most = max(most, n)
	}
	total := r.Dx() * r.Dy()
	return float64(total-most) / float64(total)
}

// NotBlank returns an error when less than MinInk of img's pixels differ from its background.
func NotBlank(img image.Image) error {
	if ink := Ink(img); ink < MinInk {
		b := img.Bounds()
		return fmt.Errorf("browser: the screenshot (%d × %d) is blank: %.4f %% of its pixels differ from the background, want at least %.2f %%",
			b.Dx(), b.Dy(), 100*ink, 100*MinInk)
	}
	return nil
}
