import t from 'tap';
import { PmlModel } from '../../../../core/src/ooxml/pml/parts.js';
import { bodyText, effectiveFont, effectiveParagraph, effectiveTextFrame, readParagraphs } from '../../../../core/src/ooxml/pml/text.js';
import { EMPTY_THEME, resolveThemeFont, type Theme } from '../../../../core/src/ooxml/pml/theme.js';
import { miniDeck, sp } from './mini-deck.js';
import { colorIn, DEFAULT_COLOR_MAP, rgbaToHex } from '../../../../core/src/ooxml/pml/color.js';
import { NS } from '../../../../core/src/ooxml/xml.js';

const TX_STYLES =
  '<p:titleStyle><a:lvl1pPr><a:defRPr sz="4400" b="1"><a:solidFill><a:schemeClr val="tx2"/></a:solidFill><a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/></a:defRPr></a:lvl1pPr></p:titleStyle>' +
  '<p:bodyStyle><a:lvl1pPr><a:defRPr sz="2800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr>' +
  '<a:lvl2pPr><a:defRPr sz="2400" i="1"/></a:lvl2pPr></p:bodyStyle>' +
  '<p:otherStyle><a:lvl1pPr><a:defRPr sz="1000"/></a:lvl1pPr></p:otherStyle>';
const DEFAULT_TEXT = '<a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr>';
const MASTER =
  sp(2, 'Title', { ph: 'type="title"', xfrm: [0, 0, 10, 10], body: '<a:p/>' }) +
  sp(3, 'Body', { ph: 'type="body" idx="1"', xfrm: [0, 0, 10, 10], body: '<a:p/>', lstStyle: '<a:lvl1pPr><a:defRPr sz="3000"/></a:lvl1pPr>' }) +
  sp(4, 'Footer', { ph: 'type="ftr" idx="3"', xfrm: [0, 0, 10, 10], body: '<a:p/>' });

async function deck(slideTree: string, layoutTree = '') {
  const pkg = await miniDeck({ masterTree: MASTER, txStyles: TX_STYLES, defaultTextStyle: DEFAULT_TEXT, layouts: [{ tree: layoutTree }], slides: [{ tree: slideTree }] });
  const model = new PmlModel(pkg);
  return model.slide('/ppt/slides/slide1.xml').shapes;
}

const run = (text: string, rPr = '') => `<a:r><a:rPr lang="en-US" ${rPr}/><a:t>${text}</a:t></a:r>`;

t.test('paragraphs carry their level; a line break reads as \\v and fields as their text', async (t) => {
  const body = `<a:p>${run('One')}<a:br/>${run('two')}</a:p><a:p><a:pPr lvl="2"/>${run('Deep')}</a:p><a:p><a:fld id="{1}" type="slidenum"><a:t>7</a:t></a:fld></a:p>`;
  const [s] = await deck(sp(5, 'T', { body }));
  t.same(readParagraphs(s!.txBody), [
    { level: 0, text: 'One\vtwo' },
    { level: 2, text: 'Deep' },
    { level: 0, text: '7' },
  ]);
  t.equal(bodyText(s!.txBody), 'One\vtwo\nDeep\n7');
});

t.test('a title placeholder takes the master title style and the theme major font', async (t) => {
  const [s] = await deck(sp(5, 'T', { ph: 'type="title"', body: `<a:p>${run('Hello')}</a:p>` }));
  t.same(effectiveFont(s!), { name: 'Major Sans', eastAsianName: 'Major EA', complexScriptName: null, sizePt: 44, bold: true, italic: false, color: '222222' });
});

t.test('run properties override everything inherited', async (t) => {
  const r = '<a:r><a:rPr lang="en-US" sz="1250" b="0" i="1"><a:solidFill><a:srgbClr val="00ff00"/></a:solidFill><a:latin typeface="Comic Sans MS"/></a:rPr><a:t>x</a:t></a:r>';
  const [s] = await deck(sp(5, 'T', { ph: 'type="title"', body: `<a:p>${r}</a:p>` }));
  const f = effectiveFont(s!)!;
  t.same([f.name, f.sizePt, f.bold, f.italic, f.color], ['Comic Sans MS', 12.5, false, true, '00FF00']);
});

t.test('a master placeholder list style sits between the layout and the master text styles', async (t) => {
  const [s] = await deck(sp(5, 'B', { ph: 'idx="1"', body: `<a:p>${run('Body')}</a:p>` }));
  const f = effectiveFont(s!)!;
  t.equal(f.sizePt, 30, 'master body placeholder lstStyle 3000 beats bodyStyle 2800');
  t.equal(f.name, 'Minor Serif');
  t.equal(f.color, '111111', 'tx1 → dk1 through the colour map');
});

t.test('a layout placeholder list style overrides the master placeholder', async (t) => {
  const layout = sp(2, 'L', { ph: 'idx="1"', body: '<a:p/>', lstStyle: '<a:lvl1pPr><a:defRPr sz="2000" b="1"/></a:lvl1pPr>' });
  const [s] = await deck(sp(5, 'B', { ph: 'idx="1"', body: `<a:p>${run('Body')}</a:p>` }), layout);
  const f = effectiveFont(s!)!;
  t.same([f.sizePt, f.bold], [20, true]);
});

t.test('the paragraph level selects lvlNpPr in every list style', async (t) => {
  const [s] = await deck(sp(5, 'B', { ph: 'idx="1"', body: `<a:p><a:pPr lvl="1"/>${run('Second level')}</a:p>` }));
  const f = effectiveFont(s!)!;
  t.same([f.sizePt, f.italic], [24, true], 'bodyStyle lvl2pPr');
});

t.test('footer-family placeholders take the master otherStyle', async (t) => {
  const [s] = await deck(sp(5, 'F', { ph: 'type="ftr" idx="3"', body: `<a:p>${run('foot')}</a:p>` }));
  t.equal(effectiveFont(s!)!.sizePt, 10);
});

t.test('a text box takes the presentation default text style', async (t) => {
  const [s] = await deck(sp(5, 'Box', { xfrm: [0, 0, 1, 1], body: `<a:p>${run('free text')}</a:p>` }));
  t.same(effectiveFont(s!), { name: 'Minor Serif', eastAsianName: null, complexScriptName: null, sizePt: 18, bold: false, italic: false, color: '111111' });
});

t.test("an autoshape's style fontRef gives its text colour and font before the defaults", async (t) => {
  const style = '<p:style><a:lnRef idx="1"><a:schemeClr val="accent1"/></a:lnRef><a:fillRef idx="3"><a:schemeClr val="accent1"/></a:fillRef><a:effectRef idx="2"><a:schemeClr val="accent1"/></a:effectRef><a:fontRef idx="major"><a:schemeClr val="lt1"/></a:fontRef></p:style>';
  const [s] = await deck(sp(5, 'Shape', { xfrm: [0, 0, 1, 1], style, body: `<a:p>${run('on blue')}</a:p>` }));
  const f = effectiveFont(s!)!;
  t.same([f.name, f.color], ['Major Sans', 'FFFFFF']);
});

t.test('colour modifiers lumMod/lumOff are applied to scheme colours', async (t) => {
  const rPr = '<a:rPr lang="en-US"><a:solidFill><a:schemeClr val="accent1"><a:lumMod val="50000"/></a:schemeClr></a:solidFill></a:rPr>';
  const [s] = await deck(sp(5, 'Box', { xfrm: [0, 0, 1, 1], body: `<a:p><a:r>${rPr}<a:t>dark</a:t></a:r></a:p>` }));
  // 4472C4 at half luminance.
  t.equal(effectiveFont(s!)!.color, '203864');
});

t.test('text with no fill has no colour', async (t) => {
  const rPr = '<a:rPr lang="en-US"><a:noFill/></a:rPr>';
  const [s] = await deck(sp(5, 'Box', { xfrm: [0, 0, 1, 1], body: `<a:p><a:r>${rPr}<a:t>ghost</a:t></a:r></a:p>` }));
  t.equal(effectiveFont(s!)!.color, null);
});

t.test('an empty slide placeholder still reports the font text would get', async (t) => {
  const [s] = await deck(sp(5, 'T', { ph: 'type="title"' }));
  t.equal(effectiveFont(s!)!.sizePt, 44);
});

t.test('the first run with visible text decides, skipping empty ones', async (t) => {
  const body = `<a:p>${run(' ', 'sz="900"')}</a:p><a:p>${run('Real', 'sz="1100"')}</a:p>`;
  const [s] = await deck(sp(5, 'Box', { xfrm: [0, 0, 1, 1], body }));
  t.equal(effectiveFont(s!)!.sizePt, 11);
});

t.test('pictures and graphic frames have no font', async (t) => {
  const pic = '<p:pic><p:nvPicPr><p:cNvPr id="3" name="Pic"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill/><p:spPr/></p:pic>';
  const [s] = await deck(pic);
  t.equal(effectiveFont(s!), undefined);
});

t.test('theme font references resolve, empty ea/cs slots through the run language script', async (t) => {
  const theme: Theme = {
    ...EMPTY_THEME,
    major: { latin: 'Head', eastAsian: '', complexScript: '', scripts: { Jpan: 'MS Gothic', Hebr: 'David' } },
    minor: { latin: 'Body', eastAsian: 'Body EA', complexScript: '', scripts: { Hebr: 'Miriam', Hant: 'PMingLiU' } },
  };
  t.equal(resolveThemeFont('+mj-lt', theme), 'Head');
  t.equal(resolveThemeFont('+mn-lt', theme), 'Body');
  t.equal(resolveThemeFont('+mn-ea', theme, 'ja-JP'), 'Body EA', 'a filled slot wins over the script');
  t.equal(resolveThemeFont('+mj-ea', theme, 'ja-JP'), 'MS Gothic');
  t.equal(resolveThemeFont('+mj-cs', theme, 'he-IL'), 'David');
  t.equal(resolveThemeFont('+mn-cs', theme, 'he-IL'), 'Miriam');
  t.equal(resolveThemeFont('+mj-ea', theme, 'en-US'), '', 'no script for a latin language');
  t.equal(resolveThemeFont('Arial', theme), 'Arial', 'plain typefaces pass through');
});

t.test('text frame properties inherit per attribute along the placeholder chain, with schema defaults', async (t) => {
  const master = '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr lIns="0" anchor="ctr"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p/></p:txBody></p:sp>';
  const slide = '<p:sp><p:nvSpPr><p:cNvPr id="5" name="B"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr tIns="12700"><a:normAutofit fontScale="62500" lnSpcReduction="20000"/></a:bodyPr><a:lstStyle/><a:p/></p:txBody></p:sp>';
  const pkg = await miniDeck({ masterTree: master, slides: [{ tree: slide }] });
  const [s] = new PmlModel(pkg).slide('/ppt/slides/slide1.xml').shapes;
  t.same(effectiveTextFrame(s!), { insetLeft: 0, insetTop: 12700, insetRight: 91440, insetBottom: 45720, anchor: 'ctr', wrap: true, autofit: 'normal', fontScale: 0.625, lnSpcReduction: 0.2, vertical: 'horz', columns: 1 });
});

t.test("a slide's colour map override changes what tx1 means", async (t) => {
  const after = '<p:clrMapOvr><a:overrideClrMapping bg1="dk1" tx1="lt1" bg2="dk2" tx2="lt2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/></p:clrMapOvr>';
  const pkg = await miniDeck({ defaultTextStyle: DEFAULT_TEXT, slides: [{ tree: sp(5, 'Box', { xfrm: [0, 0, 1, 1], body: `<a:p>${run('light on dark')}</a:p>` }), after }] });
  const [s] = new PmlModel(pkg).slide('/ppt/slides/slide1.xml').shapes;
  t.equal(effectiveFont(s!)!.color, 'FFFFFF');
});

t.test('tint, shade and preset colours resolve as previews draw them', async (t) => {
  // tint and shade act in linear light, as PowerPoint applies them: half-way in light is BC, not 80;
  // the schema's short preset names (dkBlue, ltGray, medPurple) are the dark/light/medium colours
  const colors = [
    '<a:srgbClr val="000000"><a:tint val="50000"/></a:srgbClr>',
    '<a:srgbClr val="FFFFFF"><a:shade val="50000"/></a:srgbClr>',
    '<a:prstClr val="red"/>',
    '<a:sysClr val="windowText" lastClr="123456"/>',
    '<a:prstClr val="dkBlue"/>',
    '<a:prstClr val="ltGray"/>',
    '<a:prstClr val="medPurple"/>',
    '<a:prstClr val="lime"/>',
    '<a:sysClr val="window"/>',
    '<a:srgbClr val="FF0000"><a:alpha val="50000"/></a:srgbClr>',
  ];
  const tree = colors.map((c, i) => sp(10 + i, `C${i}`, { xfrm: [0, 0, 1, 1], body: `<a:p><a:r><a:rPr lang="en-US"><a:solidFill>${c}</a:solidFill></a:rPr><a:t>x</a:t></a:r></a:p>` })).join('');
  const pkg = await miniDeck({ slides: [{ tree }] });
  const model = new PmlModel(pkg);
  const shapes = model.slide('/ppt/slides/slide1.xml').shapes;
  const reported = shapes.map((s) => effectiveFont(s)!.color);
  t.same(reported, ['BCBCBC', 'BCBCBC', 'FF0000', '123456', '00008B', 'D3D3D3', '9370DB', '00FF00', 'FFFFFF', 'FF0000']);
  // the colour analysis reports is the one previews draw (one colour module)
  const ctx = { theme: model.slide('/ppt/slides/slide1.xml').theme, colorMap: DEFAULT_COLOR_MAP };
  const drawn = shapes.map((s) => {
    const fill = s.element.getElementsByTagNameNS(NS.a, 'solidFill')[0]!;
    return rgbaToHex(colorIn(fill, ctx)!);
  });
  t.same(drawn, reported);
});

t.test('paragraph format inherits per property: alignment, spacing (percent of size), margins, bullets', async (t) => {
  const styles =
    '<p:bodyStyle><a:lvl1pPr marL="342900" indent="-342900" algn="l"><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPct val="20000"/></a:spcBef><a:buChar char="•"/><a:defRPr sz="2000"/></a:lvl1pPr></p:bodyStyle>';
  const master = sp(3, 'Body', { ph: 'type="body" idx="1"', xfrm: [0, 0, 10, 10], body: '<a:p/>' });
  const layout = sp(2, 'L', { ph: 'idx="1"', body: '<a:p/>', lstStyle: '<a:lvl1pPr algn="ctr"><a:spcAft><a:spcPts val="600"/></a:spcAft></a:lvl1pPr>' });
  const slide = sp(5, 'B', { ph: 'idx="1"', body: `<a:p><a:pPr><a:buNone/></a:pPr>${run('one')}</a:p>` });
  const pkg = await miniDeck({ masterTree: master, txStyles: styles, layouts: [{ tree: layout }], slides: [{ tree: slide }] });
  const [s] = new PmlModel(pkg).slide('/ppt/slides/slide1.xml').shapes;
  t.same(effectiveParagraph(s!), { alignment: 'ctr', rtl: false, lineSpacing: 0.9, lineSpacingPt: null, spaceBeforePt: 4, spaceAfterPt: 6, marginLeft: 342900, indent: -342900, bullet: false });
});

t.test('an equation in mc:AlternateContent reads as its math text', async (t) => {
  const math =
    '<mc:AlternateContent><mc:Choice xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" Requires="a14"><a14:m><m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:oMath><m:r><m:t>x=1</m:t></m:r></m:oMath></m:oMathPara></a14:m></mc:Choice>' +
    '<mc:Fallback><a:r><a:rPr lang="en-US"/><a:t>[picture]</a:t></a:r></mc:Fallback></mc:AlternateContent>';
  const [s] = await deck(sp(5, 'Eq', { xfrm: [0, 0, 1, 1], body: `<a:p>${run('Let ')}${math}</a:p>` }));
  t.equal(bodyText(s!.txBody), 'Let x=1');
});
