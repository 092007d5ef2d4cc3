/**
 * A minimal valid chart part (`c:chartSpace`, ECMA-376 Part 1, §21.2.2.29) for a chart
 * type, with one empty series that `applyChartXml` fills (and clones for further series).
 * Element order follows dml-chart.xsd (CT_ChartSpace, CT_Chart, CT_PlotArea, the plot
 * types, CT_CatAx / CT_ValAx).
 */
import { NS, parseXml, type Document } from '../../ooxml/xml.js';
import type { NewChartSpec } from './chart-data.js';

/** Axis ids of a new chart (any unsigned ints unique within the chart). */
const AX1 = 500000001;
const AX2 = 500000002;

function catAx(id: number, cross: number, pos: 'b' | 'l'): string {
  return (
    `<c:catAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>` +
    `<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>` +
    `<c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>`
  );
}

function valAx(id: number, cross: number, pos: 'b' | 'l', gridlines: boolean, crossBetween: 'between' | 'midCat'): string {
  return (
    `<c:valAx><c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>` +
    `${gridlines ? '<c:majorGridlines/>' : ''}<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/>` +
    `<c:tickLblPos val="nextTo"/><c:crossAx val="${cross}"/><c:crosses val="autoZero"/><c:crossBetween val="${crossBetween}"/></c:valAx>`
  );
}

const SER = '<c:idx val="0"/><c:order val="0"/>';
const AXIDS = `<c:axId val="${AX1}"/><c:axId val="${AX2}"/>`;

/** The plot and axes of `spec`, as `c:plotArea` children. */
function plotXml(spec: NewChartSpec): string {
  switch (spec.plot) {
    case 'barChart': {
      const stacked = spec.grouping === 'stacked' || spec.grouping === 'percentStacked';
      const horizontal = spec.barDir === 'bar';
      return (
        `<c:barChart><c:barDir val="${spec.barDir ?? 'col'}"/><c:grouping val="${spec.grouping ?? 'clustered'}"/><c:varyColors val="0"/>` +
        `<c:ser>${SER}<c:invertIfNegative val="0"/></c:ser><c:gapWidth val="150"/>${stacked ? '<c:overlap val="100"/>' : ''}${AXIDS}</c:barChart>` +
        catAx(AX1, AX2, horizontal ? 'l' : 'b') +
        valAx(AX2, AX1, horizontal ? 'b' : 'l', true, 'between')
      );
    }
    case 'lineChart':
      return (
        `<c:lineChart><c:grouping val="${spec.grouping ?? 'standard'}"/><c:varyColors val="0"/>` +
        `<c:ser>${SER}${spec.markers ? '' : '<c:marker><c:symbol val="none"/></c:marker>'}<c:smooth val="0"/></c:ser>` +
        `<c:marker val="1"/>${AXIDS}</c:lineChart>` +
        catAx(AX1, AX2, 'b') +
        valAx(AX2, AX1, 'l', true, 'between')
      );
    case 'areaChart':
      return `<c:areaChart><c:grouping val="${spec.grouping ?? 'standard'}"/><c:varyColors val="0"/><c:ser>${SER}</c:ser>${AXIDS}</c:areaChart>` + catAx(AX1, AX2, 'b') + valAx(AX2, AX1, 'l', true, 'midCat');
    case 'pieChart':
      return `<c:pieChart><c:varyColors val="1"/><c:ser>${SER}</c:ser><c:firstSliceAng val="0"/></c:pieChart>`;
    case 'doughnutChart':
      return `<c:doughnutChart><c:varyColors val="1"/><c:ser>${SER}</c:ser><c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart>`;
    case 'scatterChart':
      return (
        `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>` +
        `<c:ser>${SER}<c:spPr><a:ln w="19050"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="7"/></c:marker><c:smooth val="0"/></c:ser>` +
        `${AXIDS}</c:scatterChart>` +
        valAx(AX1, AX2, 'b', false, 'midCat') +
        valAx(AX2, AX1, 'l', true, 'midCat')
      );
    case 'radarChart':
      return `<c:radarChart><c:radarStyle val="marker"/><c:varyColors val="0"/><c:ser>${SER}</c:ser>${AXIDS}</c:radarChart>` + catAx(AX1, AX2, 'b') + valAx(AX2, AX1, 'l', true, 'between');
  }
}

/**
 * A new chart part for `spec`: no title (`c:autoTitleDeleted` on until a title is set),
 * a legend (right of a pie or doughnut, else below), gaps for blank cells, and
 * `c:externalData r:id="rId1"` for the embedded workbook relationship the caller adds.
 */
export function newChartDocument(spec: NewChartSpec): Document {
  const round = spec.plot === 'pieChart' || spec.plot === 'doughnutChart';
  const xml =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
    `<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}" xmlns:r="${NS.r}">` +
    `<c:date1904 val="0"/><c:lang val="en-US"/><c:roundedCorners val="0"/>` +
    `<c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>${plotXml(spec)}</c:plotArea>` +
    `<c:legend><c:legendPos val="${round ? 'r' : 'b'}"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>` +
    `<c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData>` +
    `</c:chartSpace>`;
  return parseXml(xml, 'new chart');
}
