/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.benchmark;

import javax.imageio.ImageIO;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A line chart of rows/s against sorted runs, drawn with Java2D (headless) into a PNG, so the curve of a run can be
 * seen at a glance without a plotting dependency.
 */
final class ChartWriter
{
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;
    private static final int LEFT = 90;
    private static final int RIGHT = 300;
    private static final int TOP = 60;
    private static final int BOTTOM = 70;

    record Series(String name, Color color, boolean dashed, List<double[]> points)
    {
        Series
        {
            requireNonNull(name, "name is null");
            requireNonNull(color, "color is null");
            points = List.copyOf(points);
        }
    }

    private ChartWriter() {}

    static void write(Path file, String title, String xLabel, String yLabel, List<Series> series)
    {
        System.setProperty("java.awt.headless", "true");
        double maxX = series.stream().flatMap(line -> line.points().stream()).mapToDouble(point -> point[0]).max().orElse(1);
        double maxY = series.stream().flatMap(line -> line.points().stream()).mapToDouble(point -> point[1]).max().orElse(1) * 1.1;
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        graphics.setColor(Color.WHITE);
        graphics.fillRect(0, 0, WIDTH, HEIGHT);
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = HEIGHT - TOP - BOTTOM;

        graphics.setColor(Color.BLACK);
        graphics.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        graphics.drawString(title, LEFT, TOP - 25);
        graphics.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        // axes, grid and ticks: x at every whole run, y at five levels
        for (int run = 1; run <= (int) maxX; run++) {
            int x = LEFT + (int) (plotWidth * run / maxX);
            graphics.setColor(new Color(230, 230, 230));
            graphics.drawLine(x, TOP, x, TOP + plotHeight);
            graphics.setColor(Color.BLACK);
            graphics.drawString(String.valueOf(run), x - 4, TOP + plotHeight + 18);
        }
        for (int tick = 0; tick <= 5; tick++) {
            double value = maxY * tick / 5;
            int y = TOP + plotHeight - (int) (plotHeight * tick / 5.0);
            graphics.setColor(new Color(230, 230, 230));
            graphics.drawLine(LEFT, y, LEFT + plotWidth, y);
            graphics.setColor(Color.BLACK);
            graphics.drawString("%.2fM".formatted(value / 1e6), LEFT - 55, y + 4);
        }
        graphics.drawLine(LEFT, TOP, LEFT, TOP + plotHeight);
        graphics.drawLine(LEFT, TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight);
        graphics.drawString(xLabel, LEFT + plotWidth / 2 - 40, HEIGHT - 25);
        graphics.rotate(-Math.PI / 2);
        graphics.drawString(yLabel, -(TOP + plotHeight / 2 + 40), 25);
        graphics.rotate(Math.PI / 2);

        int legendY = TOP + 10;
        for (Series line : series) {
            graphics.setColor(line.color());
            graphics.setStroke(line.dashed()
                    ? new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, new float[] {8, 6}, 0)
                    : new BasicStroke(2.5f));
            int previousX = -1;
            int previousY = -1;
            for (double[] point : line.points()) {
                int x = LEFT + (int) (plotWidth * point[0] / maxX);
                int y = TOP + plotHeight - (int) (plotHeight * point[1] / maxY);
                graphics.fillOval(x - 4, y - 4, 8, 8);
                if (previousX >= 0) {
                    graphics.drawLine(previousX, previousY, x, y);
                }
                previousX = x;
                previousY = y;
            }
            graphics.drawLine(LEFT + plotWidth + 15, legendY, LEFT + plotWidth + 45, legendY);
            graphics.setColor(Color.BLACK);
            graphics.drawString(line.name(), LEFT + plotWidth + 52, legendY + 4);
            legendY += 22;
        }
        graphics.dispose();
        try {
            ImageIO.write(image, "png", file.toFile());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
