/**
 * Relationship types (ECMA-376 Part 1, §15 and Part 2, §9.3) and content types (Part 1,
 * §15; Part 2, §10.1) that the engine reads or writes.
 */

const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export const RT = {
  officeDocument: `${OFFICE_REL}/officeDocument`,
  slide: `${OFFICE_REL}/slide`,
  slideLayout: `${OFFICE_REL}/slideLayout`,
  slideMaster: `${OFFICE_REL}/slideMaster`,
  theme: `${OFFICE_REL}/theme`,
  notesSlide: `${OFFICE_REL}/notesSlide`,
  notesMaster: `${OFFICE_REL}/notesMaster`,
  handoutMaster: `${OFFICE_REL}/handoutMaster`,
  image: `${OFFICE_REL}/image`,
  chart: `${OFFICE_REL}/chart`,
  package: `${OFFICE_REL}/package`,
  oleObject: `${OFFICE_REL}/oleObject`,
  hyperlink: `${OFFICE_REL}/hyperlink`,
  comments: `${OFFICE_REL}/comments`,
  commentAuthors: `${OFFICE_REL}/commentAuthors`,
  tags: `${OFFICE_REL}/tags`,
  presProps: `${OFFICE_REL}/presProps`,
  viewProps: `${OFFICE_REL}/viewProps`,
  tableStyles: `${OFFICE_REL}/tableStyles`,
  vbaProject: 'http://schemas.microsoft.com/office/2006/relationships/vbaProject',
  diagramData: `${OFFICE_REL}/diagramData`,
  diagramLayout: `${OFFICE_REL}/diagramLayout`,
  diagramStyle: `${OFFICE_REL}/diagramQuickStyle`,
  diagramColors: `${OFFICE_REL}/diagramColors`,
  diagramDrawing: 'http://schemas.microsoft.com/office/2007/relationships/diagramDrawing',
  video: `${OFFICE_REL}/video`,
  audio: `${OFFICE_REL}/audio`,
  media: 'http://schemas.microsoft.com/office/2007/relationships/media',
  corePropertiesPackage: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
  extendedProperties: `${OFFICE_REL}/extended-properties`,
  digitalSignatureOrigin: 'http://schemas.openxmlformats.org/package/2006/relationships/digital-signature/origin',
} as const;

const PML = 'application/vnd.openxmlformats-officedocument.presentationml';

export const CT = {
  presentationMain: `${PML}.presentation.main+xml`,
  templateMain: `${PML}.template.main+xml`,
  slideshowMain: `${PML}.slideshow.main+xml`,
  macroPresentationMain: 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml',
  macroTemplateMain: 'application/vnd.ms-powerpoint.template.macroEnabled.main+xml',
  macroSlideshowMain: 'application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml',
  slide: `${PML}.slide+xml`,
  slideLayout: `${PML}.slideLayout+xml`,
  slideMaster: `${PML}.slideMaster+xml`,
  notesSlide: `${PML}.notesSlide+xml`,
  notesMaster: `${PML}.notesMaster+xml`,
  theme: 'application/vnd.openxmlformats-officedocument.theme+xml',
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  vbaProject: 'application/vnd.ms-office.vbaProject',
} as const;

/** Main-part content types of a presentation Slidewright reads (not macro-enabled). */
export const PRESENTATION_MAIN_TYPES: ReadonlySet<string> = new Set([CT.presentationMain, CT.templateMain, CT.slideshowMain]);

/** Main-part content types of macro-enabled presentations, refused by policy. */
export const MACRO_MAIN_TYPES: ReadonlySet<string> = new Set([CT.macroPresentationMain, CT.macroTemplateMain, CT.macroSlideshowMain]);
