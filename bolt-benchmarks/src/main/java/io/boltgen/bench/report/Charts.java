package io.boltgen.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Polygon;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * PNG line charts of the scaling curves, drawn with JFreeChart without a display: one panel per metric stacked
 * over a shared logarithmic x axis, one line per system in a fixed colour by its place in the list. The same data
 * gives the same bytes (no time stamps, fixed size, fonts and colours).
 */
public final class Charts {

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** Chart width in pixels. */
  public static final int WIDTH = 1000;
  /** Chart height in pixels. */
  public static final int HEIGHT = 760;

  private static final Color[] COLORS = {
      new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4), new Color(0x2C, 0xA0, 0x2C),
      new Color(0xFF, 0x7F, 0x0E), new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B),
      new Color(0x7F, 0x7F, 0x7F)};

  private static final Shape[] SHAPES = {
      new Ellipse2D.Double(-4, -4, 8, 8), new Rectangle2D.Double(-4, -4, 8, 8),
      new Polygon(new int[] {0, 5, -5}, new int[] {-5, 4, 4}, 3),
      new Polygon(new int[] {0, 5, 0, -5}, new int[] {-5, 0, 5, 0}, 4)};

  /**
   * One panel.
   *
   * @param label the y axis label
   * @param logY whether the y axis is logarithmic
   * @param lines by system, in legend order: (x, y) points; points with y ≤ 0 (on a log axis) or NaN are left out
   */
  public record Panel(String label, boolean logY, Map<String, List<double[]>> lines) {}

  private Charts() {}

  /** The x axis's tick unit in powers of two: a tick at every power of two, or of four when x goes past 2^14. */
  static int tickPowers(List<Panel> panels) {
    double span = panels.stream().flatMap(p -> p.lines().values().stream()).flatMap(List::stream)
        .mapToDouble(point -> point[0]).reduce(0, Math::max);
    return span > (1 << 14) ? 2 : 1;
  }

  /** Draws {@code panels} over an x axis labelled {@code xLabel} into the PNG {@code file}. */
  public static void write(Path file, String title, List<String> subtitles, String xLabel, List<Panel> panels)
      throws IOException {
    LogAxis x = new LogAxis(xLabel);
    x.setBase(2);
    x.setSmallestValue(1);
    x.setNumberFormatOverride(new DecimalFormat("#,##0"));
    x.setTickUnit(new NumberTickUnit(tickPowers(panels)), false, true);
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(x);
    plot.setGap(12);
    XYPlot firstPanel = null;
    for (Panel p : panels) {
      XYSeriesCollection data = new XYSeriesCollection();
      XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
      int i = 0;
      for (Map.Entry<String, List<double[]>> line : p.lines().entrySet()) {
        XYSeries series = new XYSeries(line.getKey(), true, false);
        for (double[] point : line.getValue()) {
          if (!Double.isNaN(point[1]) && !(p.logY() && point[1] <= 0)) {
            series.add(point[0], point[1]);
          }
        }
        data.addSeries(series);
        renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
        renderer.setSeriesStroke(i, new BasicStroke(2f));
        renderer.setSeriesShape(i, SHAPES[i % SHAPES.length]);
        i++;
      }
      ValueAxis y;
      if (p.logY()) {
        LogAxis log = new LogAxis(p.label());
        log.setNumberFormatOverride(new DecimalFormat("#,##0.#"));
        log.setTickUnit(new NumberTickUnit(1), false, true); // powers of ten only
        log.setMinorTickCount(9);
        log.setMinorTickMarksVisible(true);
        y = log;
      } else {
        NumberAxis linear = new NumberAxis(p.label());
        linear.setAutoRangeIncludesZero(true);
        linear.setNumberFormatOverride(new DecimalFormat("#,##0"));
        y = linear;
      }
      XYPlot sub = new XYPlot(data, null, y, renderer);
      sub.setBackgroundPaint(Color.WHITE);
      sub.setDomainGridlinePaint(Color.LIGHT_GRAY);
      sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
      plot.add(sub, 1);
      if (firstPanel == null) {
        firstPanel = sub;
      }
    }
    if (firstPanel != null) {
      plot.setFixedLegendItems(firstPanel.getLegendItems()); // each system once, not once per panel
    }
    JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
    for (String s : subtitles) {
      chart.addSubtitle(new TextTitle(s, new Font("SansSerif", Font.PLAIN, 11)));
    }
    chart.setBackgroundPaint(Color.WHITE);
    chart.setRenderingHints(new RenderingHints(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON));
    BufferedImage image = chart.createBufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB, null);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer");
    }
  }
}
